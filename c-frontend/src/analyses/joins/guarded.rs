//! A create and its join under one condition: `if (c) pthread_create(&t, …); … if (c)
//! pthread_join(t, …);` with `c` the same value at both tests (a tree of workers joining the
//! children it has: `if (2 * i + 1 < n)` around both). Where the second test fails, the first
//! failed too and no thread was started, so the thread is ended where the two ways out of the
//! second test meet, as by a join; without this, that path kept the thread running forever.
//!
//! The join's test may also be of a *started flag* set right after the create: `int started
//! = 0; … if (c) { pthread_create(&t, …); started = 1; } … if (started) pthread_join(t, …);`
//! ([`started_flag`]).

use super::*;
use crate::ir::ctypes::TypeId;
use crate::ir::Comparison;

/// A piece of a condition: a local of the function (through the same conversions) or an
/// integer constant.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Atom {
    Var(Vec<TypeId>, VarId),
    Const(i64),
}

/// For each single join of `f` whose create and join each lie in a block entered only by the
/// true edge of a test of one condition, as above: ends the join's thread on entry to the block
/// where the join's test meets again ([`JoinPlan::join_at_entry`]).
pub(super) fn guarded_joins(
    p: &Program,
    fx: &FnFacts<'_>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    plan: &mut JoinPlan,
) {
    let f = fx.f;
    let joins: Vec<(StmtAt, ThreadHandle)> = JoinPlan::in_function(&plan.join_after, f).collect();
    for (join, handle) in joins {
        let creates: Vec<StmtAt> = JoinPlan::in_function(&plan.create, f)
            .filter(|&(_, h)| h == handle)
            .map(|(at, _)| at)
            .collect();
        let [create] = creates[..] else {
            continue;
        };
        let Some(second) = guard(fx, join.1) else {
            continue;
        };
        let same_test = guard(fx, create.1).is_some_and(|first| {
            atoms(first.1, first.2).is_some_and(|pieces| {
                first.2 == second.2
                    && atoms(second.1, second.2).as_ref() == Some(&pieces)
                    && stable(p, fx, assigns, &pieces, [first.0, second.0])
            })
        });
        if !same_test && !started_flag(p, fx, assigns, create, second.1, second.2) {
            continue;
        }
        let Term::Goto(meet) = fx.func.blocks[join.1].term else {
            continue;
        };
        let Term::Branch { else_block, .. } = fx.func.blocks[BlockId(second.0 as u32)].term else {
            continue;
        };
        let mut preds = fx.cfg.preds[meet.0 as usize].clone();
        preds.sort_unstable();
        let mut expected = vec![second.0, join.1 .0 as usize];
        expected.sort_unstable();
        if else_block != meet || preds != expected {
            continue;
        }
        plan.join_at_entry
            .entry((f, meet))
            .or_default()
            .push(handle);
    }
}

/// The block that alone leads to block `b`, by the true edge of its test, with the test's
/// condition and comparison: `b` runs only when the condition holds. Neither on a cycle.
fn guard<'f>(fx: &'f FnFacts<'_>, b: BlockId) -> Option<(usize, &'f Operand, Option<Comparison>)> {
    let b = b.0 as usize;
    let [g] = fx.cfg.preds[b][..] else {
        return None;
    };
    if fx.cyclic[g] || fx.cyclic[b] {
        return None;
    }
    match &fx.func.blocks[BlockId(g as u32)].term {
        Term::Branch {
            cond,
            then_block,
            else_block,
            compare,
            ..
        } if then_block.0 as usize == b && else_block != then_block => Some((g, cond, *compare)),
        _ => None,
    }
}

/// The pieces of a condition that is a variable alone, or a comparison of two variables or
/// constants; `None` for anything else (the IR does not keep arithmetic's operators, so two
/// computed conditions cannot be told equal).
fn atoms(cond: &Operand, compare: Option<Comparison>) -> Option<Vec<Atom>> {
    match (compare, cond) {
        (None, op) => Some(vec![atom(op)?]),
        (Some(_), Operand::Arith(_, _, ops)) if ops.len() == 2 => ops.iter().map(atom).collect(),
        _ => None,
    }
}

fn atom(op: &Operand) -> Option<Atom> {
    let mut casts = Vec::new();
    let mut op = op;
    while let Operand::Cast(t, inner) = op {
        casts.push(*t);
        op = inner;
    }
    match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(Atom::Var(casts, *v)),
        Operand::Const(_, Some(n)) if casts.is_empty() => Some(Atom::Const(*n)),
        _ => None,
    }
}

/// Whether every variable of a condition (its `pieces`) has one value wherever the tests at `at` are made: a
/// local or parameter of `f` whose address is never taken, never assigned, or assigned once in
/// a block on no cycle that every path from the entry to each test passes.
fn stable(
    p: &Program,
    fx: &FnFacts<'_>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    pieces: &[Atom],
    at: [usize; 2],
) -> bool {
    let f = fx.f;
    pieces.iter().all(|a| {
        let Atom::Var(_, v) = a else {
            return true;
        };
        let var = &p.vars[*v];
        let own = matches!(var.kind, VarKind::Local(g) | VarKind::Param(g, _) | VarKind::Temp(g) if g == f);
        if !own || var.address_taken {
            return false;
        }
        match assigns.get(v).map(Vec::as_slice) {
            None | Some([]) => true,
            Some([(g, b, _)]) if *g == f && !fx.cyclic[b.0 as usize] => {
                let before = fx.cfg.reachable(0, |x| x == b.0 as usize);
                at.iter().all(|&t| t == b.0 as usize || !before[t])
            }
            _ => false,
        }
    })
}

/// Whether the join's test (`cond`, `compare`) is of a *started flag* of `create`: a local `k`
/// of the function, its address never taken, tested directly (`if (k)`, `k != 0`, `0 != k`),
/// with exactly two assignments: a constant 0 in a block on no cycle that every path from the
/// entry to the create goes through and that the create does not reach again, and a nonzero
/// constant later in the create's own block (the create on no cycle). So where `k` is nonzero
/// the create ran, once, before; where it is zero it did not run.
fn started_flag(
    p: &Program,
    fx: &FnFacts<'_>,
    assigns: &FxHashMap<VarId, Vec<StmtAt>>,
    create: StmtAt,
    cond: &Operand,
    compare: Option<Comparison>,
) -> bool {
    let flag = match (compare, atoms(cond, compare).as_deref()) {
        (None, Some([Atom::Var(casts, v)])) if casts.is_empty() => *v,
        (Some(Comparison::Ne), Some([Atom::Var(casts, v), Atom::Const(0)]))
        | (Some(Comparison::Ne), Some([Atom::Const(0), Atom::Var(casts, v)]))
            if casts.is_empty() =>
        {
            *v
        }
        _ => return false,
    };
    let var = &p.vars[flag];
    if var.address_taken || !matches!(var.kind, VarKind::Local(g) if g == fx.f) {
        return false;
    }
    let Some(&[first, second]) = assigns.get(&flag).map(Vec::as_slice) else {
        return false;
    };
    let constant = |(g, b, k): StmtAt| match &p.funcs[g].blocks[b].stmts[k].kind {
        StmtKind::Assign { dst, src } if dst.proj.is_empty() => src.without_casts().constant(),
        _ => None,
    };
    let (zero, set) = match (constant(first), constant(second)) {
        (Some(0), Some(x)) if x != 0 => (first, second),
        (Some(x), Some(0)) if x != 0 => (second, first),
        _ => return false,
    };
    let (_, cb, ck) = create;
    let set_after_create = set.0 == fx.f && set.1 == cb && set.2 > ck;
    // The zero is stored before the create on every way to it, and never after it.
    let zb = zero.1 .0 as usize;
    let avoids_zero = fx.cfg.reachable(0, |x| x == zb);
    let after_create = fx.cfg.reachable(cb.0 as usize, |_| false);
    let zero_before = zero.0 == fx.f
        && !fx.cyclic[zb]
        && !avoids_zero[cb.0 as usize]
        && if zb == cb.0 as usize {
            zero.2 < ck
        } else {
            !after_create[zb]
        };
    set_after_create && zero_before && !fx.cyclic[cb.0 as usize]
}
