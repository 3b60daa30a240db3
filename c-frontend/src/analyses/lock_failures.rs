//! Returns on a lock call's failure: `if (pthread_mutex_lock(&m) != 0) return -1;`, or
//! `tmp = lock_wrapper(); if (tmp == -1) return -1;`. The analysis holds a lock from its lock
//! call on, whatever the call returns (the paper's `acquire` cannot fail, and a test of the
//! result is not followed); in the run that takes such a branch the call failed and the lock is
//! not held. The lock-leak check ([`solver::threads::leaks`]) does not report a lock still held
//! at such a return.
//!
//! A return is one when every way into it (through blocks that only go on to the next) is a
//! branch testing the result of a call that takes a lock in the same function: a lock call of
//! the library model, or a call of a function whose own body makes one (a lock wrapper), the
//! result read directly or through copies into other variables.
//!
//! It reads the IR, its call sites ([`Calls`]) and the library model only; it never creates
//! labels or constraints.

use rustc_hash::FxHashSet;

use crate::analyses::calls::Calls;
use crate::ir::visit::{walk_operand, Mentions};
use crate::ir::{BlockId, Callee, Func, FuncId, Operand, Program, StmtKind, Term, VarId};
use crate::model::Kind;

/// How many blocks that only go on to the next a return may lie behind its branch.
const MAX_CHAIN: usize = 8;

/// The blocks of each function that return on a lock call's failure.
pub fn failure_returns(p: &Program, calls: &Calls) -> FxHashSet<(FuncId, BlockId)> {
    let lock_call = |g: FuncId| {
        matches!(
            p.known_kind(g),
            Some(Kind::Acquire { .. } | Kind::TryAcquire { .. })
        )
    };
    let calls_any = |f: FuncId, of: &dyn Fn(FuncId) -> bool| {
        (calls.sites_in(f).iter()).any(|s| s.callee.is_some_and(of))
    };
    let wrappers: FxHashSet<FuncId> = (p.funcs.iter_enumerated())
        .filter(|&(f, func)| func.defined && calls_any(f, &lock_call))
        .map(|(f, _)| f)
        .collect();
    let takes_lock = |g: FuncId| lock_call(g) || wrappers.contains(&g);
    let mut out = FxHashSet::default();
    // Only a function that calls one that takes a lock has a result to test.
    for (f, func) in (p.funcs.iter_enumerated()).filter(|&(f, _)| calls_any(f, &takes_lock)) {
        let results = lock_results(func, takes_lock);
        if results.is_empty() {
            continue;
        }
        let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); func.blocks.len()];
        for (b, block) in func.blocks.iter_enumerated() {
            for s in block.term.successors() {
                preds[s.0 as usize].push(b);
            }
        }
        for (b, block) in func.blocks.iter_enumerated() {
            if !matches!(block.term, Term::Return(..)) {
                continue;
            }
            let mut x = b;
            for _ in 0..MAX_CHAIN {
                match preds[x.0 as usize].as_slice() {
                    [one] if matches!(func.blocks[*one].term, Term::Goto(_)) => x = *one,
                    _ => break,
                }
            }
            let into = &preds[x.0 as usize];
            let tests = |q: &BlockId| match &func.blocks[*q].term {
                Term::Branch { cond, .. } => results.iter().any(|&v| mentions(cond, v)),
                _ => false,
            };
            if !into.is_empty() && into.iter().all(tests) {
                out.insert((f, b));
            }
        }
    }
    out
}

/// The variables of `func` that hold the result of a call that takes a lock, directly or
/// through copies.
fn lock_results(func: &Func, takes: impl Fn(FuncId) -> bool) -> Vec<VarId> {
    let mut results: Vec<VarId> = Vec::new();
    for s in func.blocks.iter().flat_map(|b| &b.stmts) {
        if let StmtKind::Call {
            dst: Some(dst),
            callee: Callee::Direct(g),
            ..
        } = &s.kind
        {
            if let Some(v) = dst.plain_var().filter(|_| takes(*g)) {
                results.push(v);
            }
        }
    }
    loop {
        let before = results.len();
        for s in func.blocks.iter().flat_map(|b| &b.stmts) {
            if let StmtKind::Assign { dst, src } = &s.kind {
                let from = match src.without_casts() {
                    Operand::Use(lv) => lv.plain_var(),
                    _ => None,
                };
                if let (Some(d), Some(v)) = (dst.plain_var(), from) {
                    if results.contains(&v) && !results.contains(&d) {
                        results.push(d);
                    }
                }
            }
        }
        if results.len() == before {
            return results;
        }
    }
}

/// Whether `op` reads `v`.
fn mentions(op: &Operand, v: VarId) -> bool {
    let mut m = Mentions::of(v);
    walk_operand(&mut m, op);
    m.count > 0
}
