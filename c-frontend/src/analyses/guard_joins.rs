//! Where a lazily filled guard is seen null, no thread started where it is set is running (an
//! extension beyond the paper, for thread libraries that build their pool on first use: pigz's
//! `setup_jobs`, whose stores into the job queue and the pools are made before any of the
//! threads that use them start, in every batch).
//!
//! ```c
//! void setup(void) {
//!     if (gate != NULL) return;           // the guard's test: its null side is a *guard join*
//!     gate = gate_make();                 // a guarded creation (`singletons`)
//!     queue = NULL;                       // made where no worker runs
//! }
//! void batch(void) { setup(); launch(worker); }   // the create: the guard is certainly set
//! void stop(void) { join_all(); gate = NULL; }    // a reset, where no thread runs
//! ```
//!
//! For a guard `G` of [`crate::analyses::singletons`], this module finds, on the IR:
//!
//! - where `G` is certainly set: a must analysis over the direct calls (a store of anything
//!   but null sets it, a test's non-null side sets it, a call of a function that leaves it set
//!   on every return sets it, one of a function that may write it otherwise, or through a
//!   pointer, forgets it; a function is entered with it set when every call of it is made with
//!   it set, and never when it is `main`, recursive, addressed or uncalled);
//! - the handles of the joins plan all of whose creates are made where `G` is certainly set;
//! - the null sides of the tests of `G` (each entered only from its test).
//!
//! At those null sides the plan joins an *alias* of each such handle: a handle no create has,
//! which the thread analysis turns into a join of the handle it stands for only when the
//! argument below holds there (`solver::threads::epochs::settle_guard_joins`), and leaves a join
//! of nothing otherwise.
//!
//! The argument, for one handle. Suppose the functions that test `G` here, those that make the
//! creates, and the creations run in no thread, and no thread of the handle (nor one such a
//! thread started) runs at any reset of `G`. A thread of the handle was started with `G` set,
//! by the one thread that runs those functions; `G` becomes null only at a reset, where no
//! thread of the handle runs. So a thread of the handle running while `G` is null would have
//! run across a reset. Where the thread that tests `G` sees it null, no thread of the handle
//! runs, as after its join; and from there on, only that thread could start one again, which
//! its own forks of the handle say (as after any join).
//!
//! As [`crate::analyses::singletons`] does, this assumes that a creation that returns leaves
//! the guard set (going on with a null lock crashes at its first use): a store of anything but
//! a constant null into the guard is one of its creations.
//!
//! It reads the IR, the call index and the joins plan, and adds only the aliases to the plan.

use std::collections::BTreeMap;

use rustc_hash::FxHashSet;

use crate::analyses::calls::Calls;
use crate::analyses::joins::{JoinPlan, StmtAt};
use crate::analyses::never_returns::{ends_path, never_returning};
use crate::analyses::singletons::{null_side, Guard};
use crate::ir::{BlockId, Callee, FuncId, Program, StmtKind, Term, VarId};
use solver::threads::ThreadHandle;

/// The guard joins of one guard: where it is seen null, the aliases joined there, each with
/// the handle it stands for, and the functions of those handles' creates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardJoins {
    /// The guard's index in [`crate::analyses::Analysed::guards`].
    pub guard: usize,
    /// The null sides of the guard's tests, sorted.
    pub at: Vec<(FuncId, BlockId)>,
    /// `(alias, handle)`, sorted.
    pub aliases: Vec<(ThreadHandle, ThreadHandle)>,
    /// The functions of the handles' creates, sorted.
    pub forkers: Vec<FuncId>,
}

/// The guard joins of the program's guards, their aliases added to `plan`.
pub fn find(
    p: &Program,
    calls: &Calls,
    main: FuncId,
    guards: &[Guard],
    plan: &mut JoinPlan,
) -> Vec<GuardJoins> {
    let mut out = Vec::new();
    if guards.is_empty() {
        return out;
    }
    let never = never_returning(p, calls);
    for (i, guard) in guards.iter().enumerate() {
        let set = SetAt::of(p, calls, main, guard.var, &never);
        let mut creates: BTreeMap<ThreadHandle, (bool, Vec<FuncId>)> = BTreeMap::new();
        for (&at, &h) in &plan.create {
            let entry = creates.entry(h).or_insert((true, Vec::new()));
            entry.0 &= set.before(p, at);
            entry.1.push(at.0);
        }
        let mut forkers = Vec::new();
        let mut handles = Vec::new();
        for (h, (all, fns)) in creates {
            if all {
                handles.push(h);
                forkers.extend(fns);
            }
        }
        let at = null_sides(p, guard.var);
        if handles.is_empty() || at.is_empty() {
            continue;
        }
        forkers.sort();
        forkers.dedup();
        let aliases = handles
            .into_iter()
            .map(|h| (plan.fresh_handle(), h))
            .collect();
        out.push(GuardJoins {
            guard: i,
            at,
            aliases,
            forkers,
        });
    }
    out
}

/// The null sides of the tests of `var`, each entered only from its test.
fn null_sides(p: &Program, var: VarId) -> Vec<(FuncId, BlockId)> {
    let mut out = Vec::new();
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            let Some(null) = null_side(&block.term, var) else {
                continue;
            };
            let mut preds = (func.blocks.iter_enumerated())
                .filter(|(_, bl)| bl.term.successors().contains(&null))
                .map(|(pb, _)| pb);
            if preds.next() == Some(b) && preds.next().is_none() {
                out.push((f, null));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Where a guard is certainly set: the state on entry to each block of each function.
struct SetAt<'a> {
    var: VarId,
    /// Per function: whether the guard is set on entry to each block (`None`: not analysed).
    entry: Vec<Option<Vec<bool>>>,
    /// The functions that leave it set on every return, whatever it was on entry.
    sets: FxHashSet<FuncId>,
    /// The functions a call of which may write it and then return.
    writing: FxHashSet<FuncId>,
    /// The functions that never return: the way through a call of one goes nowhere.
    never: &'a FxHashSet<FuncId>,
}

impl<'a> SetAt<'a> {
    fn of(
        p: &Program,
        calls: &Calls,
        main: FuncId,
        var: VarId,
        never: &'a FxHashSet<FuncId>,
    ) -> SetAt<'a> {
        let mut out = SetAt {
            var,
            entry: vec![None; p.funcs.len()],
            sets: FxHashSet::default(),
            writing: writing(p, calls, var, never),
            never,
        };
        // Callees first: which functions leave the guard set, from an entry that knows nothing.
        for &(f, recursive) in calls.callers_first().iter().rev() {
            if recursive || !out.writing.contains(&f) {
                continue;
            }
            let blocks = out.blocks(p, f, false);
            let func = &p.funcs[f];
            let leaves_set = (func.blocks.iter_enumerated())
                .filter(|(_, b)| matches!(b.term, Term::Return(..)))
                .all(|(b, block)| out.after(&block.stmts, blocks[b.0 as usize]));
            if leaves_set
                && func
                    .blocks
                    .iter()
                    .any(|b| matches!(b.term, Term::Return(..)))
            {
                out.sets.insert(f);
            }
        }
        // Callers first: the state each function is entered with, from its calls.
        let mut called: Vec<Option<bool>> = vec![None; p.funcs.len()];
        for &(f, recursive) in calls.callers_first() {
            let entered = f != main
                && !recursive
                && !calls.uses.addressed.contains(&f)
                && called[f.0 as usize] == Some(true);
            let blocks = out.blocks(p, f, entered);
            for site in calls.sites_in(f) {
                let Some(g) = site.callee else { continue };
                let stmts = &p.funcs[f].blocks[site.block].stmts[..site.stmt];
                let before = out.after(stmts, blocks[site.block.0 as usize]);
                let c = &mut called[g.0 as usize];
                *c = Some(c.unwrap_or(true) && before);
            }
            out.entry[f.0 as usize] = Some(blocks);
        }
        out
    }

    /// Whether the guard is certainly set just before statement `at`.
    fn before(&self, p: &Program, (f, b, k): StmtAt) -> bool {
        let Some(blocks) = &self.entry[f.0 as usize] else {
            return false;
        };
        self.after(&p.funcs[f].blocks[b].stmts[..k], blocks[b.0 as usize])
    }

    /// Whether the guard is set after `stmts`, from `set` before them.
    fn after(&self, stmts: &[crate::ir::Stmt], mut set: bool) -> bool {
        for s in stmts {
            set = self.step(&s.kind, set);
        }
        set
    }

    fn step(&self, kind: &StmtKind, set: bool) -> bool {
        if writes(kind, self.var) {
            return match kind {
                StmtKind::Assign { src, .. } => src.constant() != Some(0),
                StmtKind::Call { .. } => true,
                _ => false,
            };
        }
        if ends_path(kind, self.never) {
            return true;
        }
        match kind {
            StmtKind::Call { callee, .. } => match callee {
                Callee::Direct(g) if self.sets.contains(g) => true,
                Callee::Direct(g) => set && !self.writing.contains(g),
                Callee::Indirect(_) => false,
            },
            StmtKind::Asm { .. } => false,
            _ => set,
        }
    }

    /// The state on entry to each block of `f` (a must analysis: a block is entered with the
    /// guard set only if every way into it leaves it set; a test's sides refine it).
    fn blocks(&self, p: &Program, f: FuncId, entered: bool) -> Vec<bool> {
        let func = &p.funcs[f];
        let n = func.blocks.len();
        if n == 0 {
            return Vec::new();
        }
        let mut state = vec![true; n];
        state[0] = entered;
        let mut reached = vec![false; n];
        reached[0] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for (b, block) in func.blocks.iter_enumerated() {
                if !reached[b.0 as usize] {
                    continue;
                }
                let out = self.after(&block.stmts, state[b.0 as usize]);
                let null = null_side(&block.term, self.var);
                for s in block.term.successors() {
                    let along = match null {
                        Some(nb) if nb == s => false,
                        Some(_) => true,
                        None => out,
                    };
                    let i = s.0 as usize;
                    let new = if reached[i] { state[i] && along } else { along };
                    if !reached[i] || new != state[i] {
                        reached[i] = true;
                        state[i] = new;
                        changed = true;
                    }
                }
            }
        }
        state
    }
}

/// The functions a call of which may write `var` and then return: those that store into it,
/// and those that call one of them (directly, or through a pointer or code the model does not
/// know once one of them is addressed), leaving out calls of functions that never return.
fn writing(p: &Program, calls: &Calls, var: VarId, never: &FxHashSet<FuncId>) -> FxHashSet<FuncId> {
    let mut out: FxHashSet<FuncId> = (p.funcs.iter_enumerated())
        .filter(|(f, func)| {
            *f != p.global_init
                && (func.blocks.iter().flat_map(|b| &b.stmts)).any(|s| writes(&s.kind, var))
        })
        .map(|(f, _)| f)
        .collect();
    // Code the model does not know may call back any function whose address it was given.
    let calls_any = |g: FuncId| p.funcs[g].blocks.is_empty() && p.known_kind(g).is_none();
    let mut stack: Vec<FuncId> = out.iter().copied().collect();
    let mut called_back = false;
    loop {
        while let Some(g) = stack.pop() {
            if never.contains(&g) {
                continue;
            }
            for site in calls.sites_calling(g) {
                if !never.contains(&site.caller) && out.insert(site.caller) {
                    stack.push(site.caller);
                }
            }
        }
        if called_back || !out.iter().any(|f| calls.uses.addressed.contains(f)) {
            return out;
        }
        called_back = true;
        for f in p.funcs.indices() {
            let calls_back = calls.sites_in(f).iter().any(|site| match site.callee {
                None => true,
                Some(g) => !never.contains(&g) && calls_any(g),
            });
            if calls_back && !never.contains(&f) && out.insert(f) {
                stack.push(f);
            }
        }
    }
}

/// Whether a statement stores into `var` by name.
fn writes(kind: &StmtKind, var: VarId) -> bool {
    match kind {
        StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
            dst.plain_var() == Some(var)
        }
        _ => false,
    }
}
