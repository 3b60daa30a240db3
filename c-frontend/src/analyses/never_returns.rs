//! The functions of the program that never return to their caller: no `return` is reachable
//! from their entry once a call of a function that never returns ends the path. The lowering
//! already ends a block at a call of a function declared `noreturn` or modelled so (`exit`,
//! `abort`, `pthread_exit`); this finds the program's own such functions, which are often not
//! declared so (`fail(…) { fprintf(stderr, …); exit(1); }`), so that a must analysis does not
//! lose what holds on the paths that go on (a lock wrapper that calls `fail` when the lock call
//! fails still leaves the lock held on every path that returns).
//!
//! It reads the IR and its call sites ([`Calls`]) only.

use rustc_hash::FxHashSet;

use crate::analyses::calls::Calls;
use crate::ir::{BlockId, Callee, FuncId, Program, StmtKind, Term};

/// The functions of `p` with a body that never return (a fixpoint: a function whose only
/// returns lie after calls of such functions never returns either). Each function is checked
/// once, and again only when one it calls is found never to return.
pub fn never_returning(p: &Program, calls: &Calls) -> FxHashSet<FuncId> {
    let has_body = |f: FuncId| p.funcs[f].defined && !p.funcs[f].blocks.is_empty();
    let mut out: FxHashSet<FuncId> = FxHashSet::default();
    let mut work: Vec<FuncId> = p.funcs.indices().filter(|&f| has_body(f)).collect();
    let mut queued = vec![false; p.funcs.len()];
    for f in &work {
        queued[f.0 as usize] = true;
    }
    while let Some(f) = work.pop() {
        queued[f.0 as usize] = false;
        if out.contains(&f) || returns(p, f, &out) {
            continue;
        }
        out.insert(f);
        for site in calls.sites_calling(f) {
            let c = site.caller;
            if has_body(c)
                && !out.contains(&c)
                && !std::mem::replace(&mut queued[c.0 as usize], true)
            {
                work.push(c);
            }
        }
    }
    out
}

/// Whether a call statement calls a function of `never`.
pub fn ends_path(kind: &StmtKind, never: &FxHashSet<FuncId>) -> bool {
    matches!(kind, StmtKind::Call { callee: Callee::Direct(g), .. } if never.contains(g))
}

/// Whether a `return` of `f` is reachable from its entry, a call of a function of `never`
/// ending the path.
fn returns(p: &Program, f: FuncId, never: &FxHashSet<FuncId>) -> bool {
    let func = &p.funcs[f];
    let mut seen = vec![false; func.blocks.len()];
    let mut stack = vec![BlockId(0)];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        let block = &func.blocks[b];
        if block.stmts.iter().any(|s| ends_path(&s.kind, never)) {
            continue;
        }
        if matches!(block.term, Term::Return(..)) {
            return true;
        }
        for &next in block.term.successors().iter() {
            if let Some(slot) = seen.get_mut(next.0 as usize) {
                if !*slot {
                    *slot = true;
                    stack.push(next);
                }
            }
        }
    }
    false
}
