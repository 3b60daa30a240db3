//! A `pthread_create` that fails starts no thread: its failure branch ends the thread like a
//! join.

use super::*;

/// A `pthread_create` that fails starts no thread: on the branch taken when its result is not
/// zero (`if (rc != 0)`, `if (pthread_create(…))`), its thread is ended at once, as by a join.
/// Only for creates outside loops (the item ended would otherwise include earlier iterations'
/// threads), and only when the failure branch is entered from nowhere else.
pub(super) fn failed_creates(
    f: FuncId,
    func: &Func,
    cfg: &Cfg,
    cyclic: &[bool],
    calls: &ThreadCalls,
    plan: &mut JoinPlan,
) {
    for (b, block) in func.blocks.iter_enumerated() {
        if cyclic[b.0 as usize] {
            continue;
        }
        for k in 0..block.stmts.len() {
            let Some((failure, _)) = result_branch(func, b, k, calls) else {
                continue;
            };
            if cfg.preds[failure.0 as usize] != [b.0 as usize] {
                continue;
            }
            let handle = match plan.create.get(&(f, b, k)) {
                Some(&h) => h,
                None => {
                    let h = ThreadHandle(plan.handles);
                    plan.handles += 1;
                    plan.create.insert((f, b, k), h);
                    h
                }
            };
            plan.join_at_entry
                .entry((f, failure))
                .or_default()
                .push(handle);
        }
    }
}

/// When statement `k` of block `b` is a `pthread_create` whose result the block's terminator
/// tests (`rc = pthread_create(…); if (rc != 0)`, also through copies of `rc`): the blocks taken
/// when it fails and when it succeeds.
pub(super) fn result_branch(
    func: &Func,
    b: BlockId,
    k: usize,
    calls: &ThreadCalls,
) -> Option<(BlockId, BlockId)> {
    let plain = Operand::plain_var;
    let block = &func.blocks[b];
    let Term::Branch {
        cond,
        then_block,
        else_block,
        ..
    } = &block.term
    else {
        return None;
    };
    let tested = plain(cond)?;
    let StmtKind::Call {
        dst: Some(dst),
        callee: Callee::Direct(c),
        ..
    } = &block.stmts[k].kind
    else {
        return None;
    };
    if !calls.is_library_create(*c) || !dst.proj.is_empty() {
        return None;
    }
    let Base::Var(result) = dst.base else {
        return None;
    };
    // The variables holding the result at the end of the block.
    let mut names = vec![result];
    for later in &block.stmts[k + 1..] {
        let written = match &later.kind {
            StmtKind::Assign { dst, src } => {
                if let (Base::Var(x), true) = (&dst.base, dst.proj.is_empty()) {
                    let copy = plain(src).is_some_and(|v| names.contains(&v));
                    names.retain(|n| n != x);
                    if copy {
                        names.push(*x);
                    }
                }
                None
            }
            StmtKind::Call { dst: Some(d), .. } => match d.base {
                Base::Var(x) => Some(x),
                Base::Deref(_) => None,
            },
            _ => None,
        };
        if let Some(x) = written {
            names.retain(|n| *n != x);
        }
    }
    names
        .contains(&tested)
        .then_some((*then_block, *else_block))
}
