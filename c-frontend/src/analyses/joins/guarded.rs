//! A create and its join under one condition: `if (c) pthread_create(&t, …); … if (c)
//! pthread_join(t, …);` with `c` the same value at both tests (a tree of workers joining the
//! children it has: `if (2 * i + 1 < n)` around both). Where the second test fails, the first
//! failed too and no thread was started, so the thread is ended where the two ways out of the
//! second test meet, as by a join; without this, that path kept the thread running forever.

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
    let mut joins: Vec<(StmtAt, ThreadHandle)> = plan
        .join_after
        .iter()
        .filter(|(at, _)| at.0 == f)
        .map(|(&at, &h)| (at, h))
        .collect();
    joins.sort_unstable();
    for (join, handle) in joins {
        let creates: Vec<StmtAt> = plan
            .create
            .iter()
            .filter(|&(at, &h)| h == handle && at.0 == f)
            .map(|(&at, _)| at)
            .collect();
        let [create] = creates[..] else {
            continue;
        };
        let (Some(first), Some(second)) = (guard(fx, create.1), guard(fx, join.1)) else {
            continue;
        };
        let Some(pieces) = atoms(first.1, first.2) else {
            continue;
        };
        let same = first.2 == second.2 && atoms(second.1, second.2).as_ref() == Some(&pieces);
        if !same || !stable(p, fx, assigns, &pieces, [first.0, second.0]) {
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
        (Some(_), Operand::Arith(_, ops)) if ops.len() == 2 => ops.iter().map(atom).collect(),
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
