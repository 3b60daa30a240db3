//! Hand-offs of a growing counter's value: `pthread_create(…, (void *)o.next)` where the
//! counter `o.next` (a global, or a member path of one) only ever grows between two successful
//! creates, so that no two threads of the create are handed one value (an extension beyond the
//! paper, as [`JoinPlan::value_handoffs`], which it adds to).
//!
//! ```c
//! o.cur = 0;
//! while (o.cur < o.n) {
//!     while (1) {                                  // retried while the create fails
//!         rc = pthread_create(&t, 0, work, (void *)o.cur);
//!         if (rc == 0) break;
//!         usleep(1000);
//!     }
//!     o.cur++;                                     // the next thread gets the next value
//! }
//! ```
//!
//! The counted loops of [`JoinPlan::value_handoffs`] need a local counter and the create on no
//! other cycle; this one needs neither, and checks instead, on the IR:
//!
//! - The counter is a global integer (or an integer member path of one, not through a union)
//!   whose address is never taken ([`Counter::read_by`]), so every write names it; or an
//!   integer local of the create's function whose address is never taken (`n = 0; while
//!   (fgets(line, …)) { pthread_create(…, (void *)n); n++; }`).
//! - Every write of it in the program lies in the create's function `f`, and is either an
//!   increment by a positive constant, or on no cycle through the create (a start before the
//!   loop, a count-down after it: no create follows it that a create preceded). `f` runs
//!   once, which the slot analysis that uses the hand-off checks ([`crate::analyses::once`]).
//! - From the create, no path reaches the create again without passing an increment, except
//!   through the side of a test of the create's result on which it failed: a create that fails
//!   starts no thread, so retrying it with the same value hands that value to one thread still.
//!
//! Why that is sound: the values the create hands to the threads it starts are read at
//! successful creates; between two of them the counter only went up (nothing else writes it
//! on a path from one create to the next), so they differ. The counter is assumed not to wrap around, as for claimed indices.

use super::counters::{Counter, Write};
use super::*;

/// The counter whose value the create at `(b, k)` of `f` hands over (its argument `handed`),
/// when the counter only grows between the create's successful runs.
pub(super) fn growing_counter(
    p: &Program,
    fx: &FnFacts<'_>,
    (b, k): (BlockId, usize),
    handed: &Operand,
) -> Option<VarId> {
    let Operand::Cast(ty, _) = handed else {
        return None;
    };
    if !matches!(p.types.get(*ty), Type::Pointer(_)) {
        return None;
    }
    let read = handed.without_casts();
    let (var, writes): (VarId, Vec<(FuncId, BlockId, usize, Write<'_>)>) =
        match Counter::read_by(p, read) {
            Some(counter) => (counter.var, global_writes(p, &counter)),
            None => {
                let v = read.plain_var().filter(|&v| private_integer(p, fx.f, v))?;
                (v, local_writes(p, fx, v))
            }
        };
    let mut increments = FxHashSet::default();
    let mut starts = Vec::new();
    for (g, bb, kk, write) in writes {
        match write {
            _ if g != fx.f => return None,
            Write::Step(step) if step > 0 => {
                increments.insert((bb, kk));
            }
            // A start, a count-down, anything else: harmless where no create follows it.
            _ => starts.push((bb, kk)),
        }
    }
    let walk = Walk {
        p,
        f: fx.f,
        func: fx.func,
        create: (b, k),
        increments: &increments,
        starts: &starts,
        back_edge: None,
        stop: None,
        others: &[],
    };
    (!walk.restarts() && walk.increments_first()).then_some(var)
}

/// Every write of a global counter in the program, with how it writes it.
fn global_writes<'p>(
    p: &'p Program,
    counter: &Counter,
) -> Vec<(FuncId, BlockId, usize, Write<'p>)> {
    let mut out = Vec::new();
    for (g, func) in p.funcs.iter_enumerated() {
        for (bb, block) in func.blocks.iter_enumerated() {
            for (kk, stmt) in block.stmts.iter().enumerate() {
                if let Some(w) = counter.written_by(p, stmt) {
                    out.push((g, bb, kk, w));
                }
            }
        }
    }
    out
}

/// Whether `v` is an integer local, temporary or parameter of `f` whose address is never
/// taken: only `f`'s statements that name it write it.
fn private_integer(p: &Program, f: FuncId, v: VarId) -> bool {
    let var = &p.vars[v];
    matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g, _) if g == f)
        && !var.address_taken
        && matches!(p.types.get(var.ty), Type::Int | Type::Char)
}

/// Every write of the private local `v` in its function, with how it writes it: `v = v + k`
/// ([`crate::ir::Program::steps`]), `v = value`, or anything else.
fn local_writes<'p>(
    p: &'p Program,
    fx: &FnFacts<'p>,
    v: VarId,
) -> Vec<(FuncId, BlockId, usize, Write<'p>)> {
    let mut out = Vec::new();
    let names = |lv: &Lval| lv.plain_var() == Some(v);
    for (bb, block) in fx.func.blocks.iter_enumerated() {
        for (kk, stmt) in block.stmts.iter().enumerate() {
            let write = match &stmt.kind {
                StmtKind::Assign { dst, src } if names(dst) => match src.without_casts() {
                    Operand::Arith(_, _, ops) => {
                        let reads_self = ops.first().and_then(Operand::plain_var) == Some(v);
                        match p.steps.get(&stmt.pos) {
                            Some(&k) if reads_self && ops.len() == 2 => Write::Step(k),
                            _ => Write::Other,
                        }
                    }
                    _ => Write::Set(src),
                },
                StmtKind::Call { dst: Some(dst), .. } if names(dst) => Write::Other,
                StmtKind::Asm { operands } if operands.iter().any(names) => Write::Other,
                _ => continue,
            };
            out.push((fx.f, bb, kk, write));
        }
    }
    out
}

/// The searches from a create for a path back to it that passes no increment and no failure of
/// the create, and for a write of the counter on a cycle through it.
struct Walk<'a> {
    p: &'a Program,
    f: FuncId,
    func: &'a Func,
    create: (BlockId, usize),
    increments: &'a FxHashSet<(BlockId, usize)>,
    starts: &'a [(BlockId, usize)],
    /// An edge no path takes: a counted loop's back edge, for [`create_on_other_cycle`].
    back_edge: Option<(BlockId, BlockId)>,
    /// A block no path may enter before an increment, besides coming back to the create:
    /// a counter's test, for [`counted_on_success`].
    stop: Option<BlockId>,
    /// Other creates no path may reach before an increment ([`counted_on_success`]).
    others: &'a [(BlockId, usize)],
}

impl Walk<'_> {
    /// Whether a write of the counter other than an increment lies on a cycle through the
    /// create, whatever the cycle passes: values handed before it could be handed again after it.
    fn restarts(&self) -> bool {
        self.starts
            .iter()
            .any(|&w| self.reaches(self.create, w) && self.reaches(w, self.create))
    }

    /// Whether some path from just after statement `from` reaches statement `to`.
    fn reaches(&self, (b, k): (BlockId, usize), to: (BlockId, usize)) -> bool {
        if to.0 == b && to.1 > k {
            return true;
        }
        let mut seen = FxHashSet::default();
        let mut stack = self.func.blocks[b].term.successors();
        while let Some(bb) = stack.pop() {
            if bb == to.0 {
                return true;
            }
            if seen.insert(bb) {
                stack.extend(self.func.blocks[bb].term.successors());
            }
        }
        false
    }

    /// Whether every path from the create that reaches it again passes an increment or the
    /// failure side of a test of the create's result first.
    fn increments_first(&self) -> bool {
        let (b, k) = self.create;
        let StmtKind::Call { dst, .. } = &self.func.blocks[b].stmts[k].kind else {
            return false;
        };
        // The locals known to hold the create's result on the path.
        let result: Vec<VarId> = dst
            .as_ref()
            .and_then(|d| d.plain_var())
            .filter(|&v| self.private(v))
            .into_iter()
            .collect();
        let mut seen: FxHashSet<(BlockId, Vec<VarId>)> = FxHashSet::default();
        let mut stack = vec![(b, k + 1, result)];
        while let Some((bb, from, mut holders)) = stack.pop() {
            let block = &self.func.blocks[bb];
            let mut stopped = false;
            if from == 0 && self.stop == Some(bb) {
                return false;
            }
            for (kk, stmt) in block.stmts.iter().enumerate().skip(from) {
                if (bb, kk) == self.create || self.others.contains(&(bb, kk)) {
                    return false;
                }
                if self.increments.contains(&(bb, kk)) {
                    stopped = true;
                    break;
                }
                track_copies(stmt, &mut holders);
                holders.retain(|&h| self.private(h));
            }
            if stopped {
                continue;
            }
            holders.sort();
            let next: Vec<BlockId> = match &block.term {
                Term::Branch {
                    cond,
                    then_block,
                    else_block,
                    ..
                } => match value_on_success(cond, &holders) {
                    Some(0) => vec![*else_block],
                    Some(_) => vec![*then_block],
                    None => vec![*then_block, *else_block],
                },
                other => other.successors(),
            };
            for n in next {
                if self.back_edge == Some((bb, n)) {
                    continue;
                }
                if seen.insert((n, holders.clone())) {
                    stack.push((n, 0, holders.clone()));
                }
            }
        }
        true
    }

    /// Whether `v` is a local, temporary or parameter of the create's function whose address is
    /// never taken: only
    /// the function's own statements change it.
    fn private(&self, v: VarId) -> bool {
        let var = &self.p.vars[v];
        matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g, _) if g == self.f)
            && !var.address_taken
    }
}

/// Follows the locals holding the create's result through one statement: a plain copy
/// (through conversions) adds its destination, any other write of a holder removes it.
fn track_copies(stmt: &crate::ir::Stmt, holders: &mut Vec<VarId>) {
    let (dst, copy) = match &stmt.kind {
        StmtKind::Assign { dst, src } => {
            (dst, src.plain_var().is_some_and(|v| holders.contains(&v)))
        }
        StmtKind::Call { dst: Some(dst), .. } => (dst, false),
        _ => return,
    };
    if let Some(x) = dst.plain_var() {
        holders.retain(|&h| h != x);
        if copy {
            holders.push(x);
        }
    }
}

/// The value of a branch condition when the create's result, held by `holders`, is 0 (it
/// succeeded), when the condition depends on nothing else: a holder itself, a constant, and
/// conversions, `!` and comparisons of those. A conversion of 0 is 0; of another constant, only
/// a small one is kept, which every integer type holds.
fn value_on_success(op: &Operand, holders: &[VarId]) -> Option<i64> {
    use crate::ir::ArithOp;
    match op {
        Operand::Const(_, value) => *value,
        Operand::Use(lv) => lv.plain_var().filter(|v| holders.contains(v)).map(|_| 0),
        Operand::Cast(_, inner) => {
            value_on_success(inner, holders).filter(|v| (0..=i64::from(i8::MAX)).contains(v))
        }
        Operand::Arith(_, ArithOp::Not, ops) if ops.len() == 1 => {
            value_on_success(&ops[0], holders).map(|v| i64::from(v == 0))
        }
        Operand::Arith(_, ArithOp::Compare(c), ops) if ops.len() == 2 => {
            let l = value_on_success(&ops[0], holders)?;
            let r = value_on_success(&ops[1], holders)?;
            Some(i64::from(c.holds(l, r)))
        }
        _ => None,
    }
}

/// Whether every path from the create at `create` of `f` passes one of `increments` before it
/// reaches the block `test`, the create again, or another of `creates`, except through the side
/// of a test of the create's result on which it failed: each thread it starts is counted before
/// the test can read the counter (form B of a counter join, with retried creates).
pub(super) fn counted_on_success(
    p: &Program,
    f: FuncId,
    func: &Func,
    create: (BlockId, usize),
    increments: &FxHashSet<(BlockId, usize)>,
    test: BlockId,
    creates: &[(BlockId, usize)],
) -> bool {
    let walk = Walk {
        p,
        f,
        func,
        create,
        increments,
        starts: &[],
        back_edge: None,
        stop: Some(test),
        others: creates,
    };
    walk.increments_first()
}

/// Whether the create at `(b, k)` of `fx` lies on a cycle other than the counted loop `l`'s,
/// as [`Cfg::on_other_cycle`] asks, but for cycles that come back to it only when it failed: a
/// create retried until it succeeds (`while (pthread_create(&t[i], …) != 0) sleep(1);`) starts
/// one thread per run of the loop's body, since a create that fails starts none.
pub(super) fn create_on_other_cycle(
    p: &Program,
    fx: &FnFacts<'_>,
    (b, k): (BlockId, usize),
    l: &CountedLoop,
) -> bool {
    if fx.cfg.on_other_cycle(l.head.0 as usize, l) {
        return true;
    }
    if !fx.cfg.on_other_cycle(b.0 as usize, l) {
        return false;
    }
    let none = FxHashSet::default();
    let walk = Walk {
        p,
        f: fx.f,
        func: fx.func,
        create: (b, k),
        increments: &none,
        starts: &[],
        back_edge: Some((l.step, l.head)),
        stop: None,
        others: &[],
    };
    !walk.increments_first()
}
