//! Create and join loops: whether a counter changes only in its increment, whether a bound has
//! the same value in both loops (or is left to the thread analysis as a [`BoundCheck`]), whether
//! a join loop joins every element, and the idiom that joins the threads a create loop counted.

use rustc_hash::{FxHashMap, FxHashSet};

use super::*;

/// Whether a loop bound has the same value in a create loop and its join loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Fixed {
    /// Proved by the front end (a constant, or a local assigned once outside both loops).
    Proved,
    /// A global: left to the thread analysis ([`BoundCheck`]).
    IfUnwritten,
    No,
}

/// A join loop over a global array, for creates in any function.
pub(super) struct JoinLoop {
    pub(super) func: FuncId,
    pub(super) path: IdPath,
    pub(super) l: CountedLoop,
    pub(super) blocks: FxHashSet<usize>,
}

/// Whether a join loop `for (i = S; i < n; i++)` joins every thread a create loop over the same
/// array started, where `n` is the create loop's own counter after that loop: the idiom that
/// stops creating at the first failure (`if (pthread_create(&t[n], …) != 0) break;`) and joins
/// the threads it has. Threads were started at indices `S ..` the counter's final value if the
/// counter changes only by the loop's increment (and its initialisation, before the loop), and
/// the loop is never left early after a create that succeeded: every early exit leaves from code
/// the create's success branch cannot reach within the iteration.
#[allow(clippy::too_many_arguments)]
pub(super) fn joins_created_count(
    func: &Func,
    f: FuncId,
    cfg: &Cfg,
    l1: &CountedLoop,
    blocks1: &FxHashSet<usize>,
    l2: &CountedLoop,
    create: StmtAt,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    calls: &ThreadCalls,
) -> bool {
    if l2.bound != LoopBound::Var(l1.counter) || l2.start != l1.start || l2.op != LoopCmp::Lt {
        return false;
    }
    let head = l1.head.0 as usize;
    let from_head = cfg.reachable(head, |_| false);
    let written_after = assigns
        .get(&l1.counter)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .any(|(g, b, _)| {
            *g != f || (!blocks1.contains(&(b.0 as usize)) && from_head[b.0 as usize])
        });
    if written_after {
        return false;
    }
    let (_, cb, ck) = create;
    let cbu = cb.0 as usize;
    let branch = result_branch(func, cb, ck, calls);
    // The code a successful create reaches before the next test of the loop condition.
    let success = match branch {
        Some((_, ok)) => cfg.reachable(ok.0 as usize, |x| x == head || !blocks1.contains(&x)),
        None => cfg.reachable(cbu, |x| x == head || !blocks1.contains(&x)),
    };
    blocks1.iter().filter(|&&b| b != head).all(|&b| {
        cfg.succs[b].iter().all(|&s| {
            if blocks1.contains(&s) {
                return true;
            }
            match branch {
                // The create's own block may leave only on failure.
                Some((failure, _)) if b == cbu => s == failure.0 as usize,
                _ => !success[b],
            }
        })
    })
}

/// A counted loop whose counter changes only in its increment: a local of this function whose
/// address is never taken, assigned only by the loop's initialisation and increment.
pub(super) fn loop_is_clean(
    p: &Program,
    func: &Func,
    f: FuncId,
    l: &CountedLoop,
    blocks: &FxHashSet<usize>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> bool {
    let counter = &p.vars[l.counter];
    if counter.address_taken
        || !matches!(counter.kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f)
    {
        return false;
    }
    // Inside the loop, the counter is written only by the increment: the last statement of the
    // step block.
    let step = l.step.0 as usize;
    let step_last = func.blocks[l.step].stmts.len().checked_sub(1);
    let writes_in_loop = assigns
        .get(&l.counter)
        .map(|v| {
            v.iter()
                .filter(|(g, b, k)| {
                    *g == f
                        && blocks.contains(&(b.0 as usize))
                        && !(b.0 as usize == step && Some(*k) == step_last)
                })
                .count()
        })
        .unwrap_or(0);
    writes_in_loop == 0
}

/// Whether a bound has the same value in both loops: a constant, a parameter never assigned, or
/// a local assigned exactly once outside both loops, neither with its address taken, is proved
/// here; a global, or a member of one, is left to the thread analysis, which sees every write
/// through pointers too.
pub(super) fn bound_is_fixed(
    p: &Program,
    f: FuncId,
    l: &CountedLoop,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    blocks1: &FxHashSet<usize>,
    blocks2: &FxHashSet<usize>,
) -> Fixed {
    let proved = |b: bool| if b { Fixed::Proved } else { Fixed::No };
    match l.bound {
        LoopBound::Const(_) => Fixed::Proved,
        LoopBound::GlobalField { .. } => Fixed::IfUnwritten,
        // A member through a pointer: only a thread pool's wrappers ([`super::pools`]) prove
        // one, for their own loops.
        LoopBound::Member { .. } => Fixed::No,
        LoopBound::Var(v) if is_global(p, v) => Fixed::IfUnwritten,
        LoopBound::Var(v) => {
            let var = &p.vars[v];
            let writes: Vec<&StmtAt> = assigns
                .get(&v)
                .map(|w| w.iter().collect())
                .unwrap_or_default();
            if var.address_taken {
                return Fixed::No;
            }
            if matches!(var.kind, VarKind::Param(g, _) if g == f) {
                return proved(writes.is_empty());
            }
            proved(
                matches!(var.kind, VarKind::Local(g) if g == f)
                    && writes.len() == 1
                    && writes.iter().all(|(g, b, _)| {
                        *g == f
                            && !blocks1.contains(&(b.0 as usize))
                            && !blocks2.contains(&(b.0 as usize))
                    }),
            )
        }
    }
}

/// The condition on the global bound of a create loop `l1` and its join loop `l2` in `f`.
pub(super) fn bound_check(
    handle: ThreadHandle,
    f: FuncId,
    cfg: &Cfg,
    l1: &CountedLoop,
    l2: &CountedLoop,
) -> BoundCheck {
    let exit = l2.exit.0 as usize;
    let region = cfg
        .reachable(l1.head.0 as usize, |b| b == exit)
        .iter()
        .enumerate()
        .filter(|(_, &r)| r)
        .map(|(b, _)| BlockId(b as u32))
        .collect();
    BoundCheck {
        handle,
        func: f,
        bound: l1.bound,
        region,
    }
}

pub(super) fn is_global(p: &Program, v: VarId) -> bool {
    matches!(
        p.vars[v].kind,
        VarKind::Global {
            thread_local: false,
            ..
        }
    )
}

/// Whether a join loop joins every element: its counter changes only in its increment, the join
/// (in block `join_block`) runs on every iteration, and the loop is left only through its
/// condition (or by ending the program), into an exit block entered from nowhere else.
#[allow(clippy::too_many_arguments)]
pub(super) fn join_loop_complete(
    p: &Program,
    func: &Func,
    f: FuncId,
    cfg: &Cfg,
    l: &CountedLoop,
    blocks: &FxHashSet<usize>,
    join_block: BlockId,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> bool {
    loop_is_clean(p, func, f, l, blocks, assigns)
        && cfg.on_every_iteration(l, join_block.0 as usize)
        && cfg.exits_only_at_head(l, blocks)
        && cfg.preds[l.exit.0 as usize] == [l.head.0 as usize]
}

/// Whether a global bound has one value from the create loop on: its address is never taken and
/// it is assigned only by its initializer (run before `main`) and in the creating function `f`,
/// before the create loop (in blocks the loop's head cannot reach). `f` itself runs once
/// ([`JoinPlan::global`]).
pub(super) fn global_bound_fixed(
    p: &Program,
    v: VarId,
    f: FuncId,
    cfg: &Cfg,
    l: &CountedLoop,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
) -> bool {
    if p.vars[v].address_taken {
        return false;
    }
    let after = cfg.reachable(l.head.0 as usize, |_| false);
    assigns
        .get(&v)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .all(|(g, b, _)| *g == p.global_init || (*g == f && !after[b.0 as usize]))
}
