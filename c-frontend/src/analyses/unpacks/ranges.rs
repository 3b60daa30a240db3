//! Each thread's own range of elements: a thread that holds a slot (`Package::Slot`, the value
//! `id` it was started with, no two of its create's threads alike) and walks the elements
//! `[id * c, (id + 1) * c)` of a global array, for a `c` every thread of the create computes
//! alike, touches elements no other thread of the create touches (`Package::Range`, an
//! inferred unpack, paper §3.3 figure 10's [Unpack] taken further as in [`super`]):
//!
//! ```c
//! void *rows(void *arg) {
//!     long id = (long)arg;                          // the slot
//!     int chunk = N / T;                            // the same in every thread
//!     for (int i = id * chunk; i < (id + 1) * chunk; i++)
//!         for (int j = 0; j < N; j++)
//!             C[i][j] = …;                          // only this thread's rows
//! }
//! ```
//!
//! A flow-sensitive *must* analysis over the routine's graph keeps, for each stable local `i`
//! (its address never taken, so only statements naming it change it), two facts: `i ≥ id·c`
//! (`i` was assigned `id * c`, and since then only increased by constant steps) and
//! `i < (id + 1)·c` (the branch of a comparison `i < (id + 1) * c` taken, or `(id + 1) * c > i`,
//! or the other branch of `i >= …`, and `i` not assigned since). Both forms are also found
//! through locals assigned once (`lo = id * chunk; hi = lo + chunk;`), and `(id + 1) * c` may be
//! written `id * c + c`. Where both hold for one `c`, the accesses `X[i]…` of a global array
//! `X`, and `X[i]` through a global pointer holding only allocated blocks
//! ([`super::slot_calls`]), are inside the range's package, one per create and `c`.
//!
//! `c` is *invariant*: built by integer arithmetic from integer constants and from variables
//! every thread of the create reads alike — a global whose address is never taken, stored
//! only by its initializer and by the creator (which runs once, [`crate::analyses::once`]),
//! never after the create (no store of it in a block the create reaches), and locals of the
//! routine assigned once from invariant values. Two
//! threads with values `a ≠ b` then walk `[a·c, (a+1)·c)` and `[b·c, (b+1)·c)`, which are
//! disjoint (empty when `c ≤ 0`). Arithmetic that overflows is undefined in C for signed
//! integers and is not considered; floating-point bounds are not accepted (a truncated start
//! could fall into the previous thread's range).
//!
//! **The last thread's remainder.** `end = (id == T - 1) ? N : (id + 1) * c`: the thread whose
//! value is the largest the create's clean counted loop hands over (one less than its bound,
//! a constant or a global as above, for `i < n`) may run past `(id + 1)·c`: every other thread
//! has a smaller value, so its range ends at or before this one's start. The upper-bound facts
//! then read "below `(id + 1)·c`, or this is the last thread" ([`Fact::Last`]); a bound assigned
//! where the thread is known to be the last is the wildcard `None`, which meets `(id + 1)·c`
//! as `(id + 1)·c` where the two paths join.
//!
//! **Bounds in the thread's element** ([`field_ranges`]). `main` may instead store the bounds
//! in two fields of the element it hands each thread of a counted loop (an element hand-off,
//! `JoinPlan::element_handoffs`): `a[i].lo = i * c; a[i].hi = (i + 1) * c;` before the create,
//! in its block, `c` invariant as above but in `main`. When nothing else can write either field
//! (the conditions of [`super::field_slots`]), each thread's element holds its own range, and
//! the thread's `for (j = my->lo; j < my->hi; j++)` (directly, or through locals assigned once
//! from the fields) walks it: the same two facts, read from the fields.
//!
//! This module reads the IR only.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{stable_local, OwnLock, Package, Path};
use crate::analyses::joins::{JoinPlan, StmtAt};
use crate::ir::ctypes::{StructId, Type};
use crate::ir::{
    ArithOp, Base, BlockId, Comparison, FuncId, Lval, Operand, Program, Proj, StmtKind, VarId,
    VarKind,
};
use crate::model::LockMode;

/// An invariant value, by its structure: two equal keys are the same value in every thread of
/// the create.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Invariant {
    Const(i64),
    Var(VarId),
    Cast(crate::ir::ctypes::TypeId, Box<Invariant>),
    Arith(crate::ir::ctypes::TypeId, ArithOp, Vec<Invariant>),
    /// Not a value: the range bounds `main` stored in the field pair whose lower field is this
    /// one ([`field_ranges`]).
    Field(StructId, u32),
}

/// Where a thread finds its range's bounds.
#[derive(Clone, Debug)]
enum Bounds {
    /// `id·c` and `(id + 1)·c`, for the slot variable `id`.
    Slot(VarId),
    /// Read from its element.
    Fields(FieldBounds),
}

/// The routines that find their range in their element ([`Bounds::Fields`]), by routine: the
/// create, and the bounds.
pub(super) type FieldRanges = FxHashMap<FuncId, (StmtAt, FieldBounds)>;

/// Where a thread reads its range's bounds from its element, as [`field_ranges`] found them:
/// through `aliases` (its first parameter and the locals assigned once from it), the lower bound
/// in field `lo` of `strukt`, the upper in `hi`.
#[derive(Clone, Debug)]
pub(super) struct FieldBounds {
    aliases: Vec<VarId>,
    strukt: StructId,
    lo: u32,
    hi: u32,
}

/// What the analysis knows at a point. A bound `None` is the wildcard of the last thread: it
/// holds only where the thread is the last ([`Fact::Last`]), and meets `Some(c)` as `Some(c)`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fact {
    /// `i ≥ id·c`.
    AtLeast(VarId, Invariant),
    /// `i < (id + 1)·c`, or the thread is the last; `None`: the thread is the last.
    Below(VarId, Option<Invariant>),
    /// `v ≤ (id + 1)·c`, or the thread is the last; `None`: the thread is the last.
    Upper(VarId, Option<Invariant>),
    /// The thread's value is the largest its create hands over (`id == n - 1` in a thread
    /// started by `for (i = …; i < n; i++)`).
    Last,
}

impl Fact {
    fn var(&self) -> Option<VarId> {
        match self {
            Fact::AtLeast(v, _) | Fact::Below(v, _) | Fact::Upper(v, _) => Some(*v),
            Fact::Last => None,
        }
    }

    /// The same fact with the bound `c`, for a fact with a bound.
    fn with_bound(&self, c: Option<Invariant>) -> Option<Fact> {
        match self {
            Fact::Below(v, _) => Some(Fact::Below(*v, c)),
            Fact::Upper(v, _) => Some(Fact::Upper(*v, c)),
            Fact::AtLeast(..) | Fact::Last => None,
        }
    }
}

/// What the facts of two paths both say: the facts in both, and a specific bound where one
/// path has it and the other the last thread's wildcard. Whether `into` changed.
fn meet(into: &mut Vec<Fact>, incoming: &[Fact]) -> bool {
    let specific = |f: &Fact, other: &[Fact]| match f {
        Fact::Below(_, Some(_)) | Fact::Upper(_, Some(_)) => {
            let wildcard = f.with_bound(None);
            other.iter().any(|g| Some(g) == wildcard.as_ref())
        }
        _ => false,
    };
    let mut out: Vec<Fact> = into
        .iter()
        .filter(|f| incoming.contains(f) || specific(f, incoming))
        .cloned()
        .collect();
    out.extend(
        incoming
            .iter()
            .filter(|f| !into.contains(f) && specific(f, into))
            .cloned(),
    );
    out.sort();
    out.dedup();
    let changed = out != *into;
    *into = out;
    changed
}

/// The value the last thread of a create holds, from its counted loop.
#[derive(Copy, Clone, Debug)]
enum LastValue {
    /// A constant.
    Const(i64),
    /// A fixed global, or one less than it.
    Global { var: VarId, minus_one: bool },
}

/// The range slots of routine (or slot callee) `g`, for each of its slots `own` of a value
/// (see the module doc), as own locks to hold before each statement.
pub(super) fn range_slots(
    p: &Program,
    plan: &JoinPlan,
    g: FuncId,
    own: &[OwnLock],
    allocated: &mut super::slot_calls::AllocatedGlobals,
) -> FxHashMap<(BlockId, usize), Vec<OwnLock>> {
    let mut out: FxHashMap<(BlockId, usize), Vec<OwnLock>> = FxHashMap::default();
    // The globals fixed for each create, shared by its slots (the parameter and its copies).
    let mut fixed_for: Vec<FixedGlobals<'_>> = Vec::new();
    for slot in own {
        let Package::Slot(cf, cb, ck) = slot.package else {
            continue;
        };
        if slot.object.deref.is_some() || !slot.object.steps.is_empty() {
            continue;
        }
        let create = (cf, cb, ck);
        let at = match fixed_for.iter().position(|x| x.create == create) {
            Some(at) => at,
            None => {
                fixed_for.push(FixedGlobals::new(p, create));
                fixed_for.len() - 1
            }
        };
        let fixed = &fixed_for[at];
        let last = plan
            .value_loops
            .get(&create)
            .and_then(|l| last_value(l, fixed));
        let forms = Forms {
            p,
            g,
            bounds: Bounds::Slot(slot.object.var),
            fixed,
            last,
        };
        hold_ranges(&forms, create, allocated, &mut out);
    }
    out
}

/// The range of routine `g` whose bounds lie in its element ([`field_ranges`]), as own locks
/// to hold before each statement.
pub(super) fn field_range_slots(
    p: &Program,
    g: FuncId,
    (create, bounds): &(StmtAt, FieldBounds),
    allocated: &mut super::slot_calls::AllocatedGlobals,
) -> FxHashMap<(BlockId, usize), Vec<OwnLock>> {
    let fixed = FixedGlobals::new(p, *create);
    let forms = Forms {
        p,
        g,
        bounds: Bounds::Fields(bounds.clone()),
        fixed: &fixed,
        last: None,
    };
    let mut out = FxHashMap::default();
    hold_ranges(&forms, *create, allocated, &mut out);
    out
}

/// Adds to `out` the own locks of the ranges `forms` finds, in the create's packages.
fn hold_ranges(
    forms: &Forms<'_, '_>,
    (cf, cb, ck): StmtAt,
    allocated: &mut super::slot_calls::AllocatedGlobals,
    out: &mut FxHashMap<(BlockId, usize), Vec<OwnLock>>,
) {
    for ((b, k), ranges) in forms.analyse() {
        for (i, c) in ranges {
            let range = OwnLock {
                object: Path {
                    deref: None,
                    var: i,
                    steps: Vec::new(),
                },
                package: Package::Range(cf, cb, ck, c),
                mode: LockMode::Exclusive,
            };
            let pointers = pointer_ranges(forms.p, forms.g, (b, k), &range, allocated);
            let held = out.entry((b, k)).or_default();
            held.push(range);
            held.extend(pointers);
        }
    }
}

/// The routines among `candidates` (each started by one element hand-off of `main`) whose
/// element holds their range's bounds (see the module doc): by routine, the create and the
/// bounds.
pub(super) fn field_ranges(
    p: &Program,
    plan: &JoinPlan,
    candidates: &[(FuncId, StmtAt)],
) -> FieldRanges {
    let mut out = FxHashMap::default();
    for &(g, create) in candidates {
        let Some(&(array, counter)) = plan.element_handoffs.get(&create) else {
            continue;
        };
        let (f, b, k) = create;
        let fixed = FixedGlobals::new(p, create);
        let forms = Forms {
            p,
            g: f,
            bounds: Bounds::Slot(counter),
            fixed: &fixed,
            last: None,
        };
        let stmts = &p.funcs[f].blocks[b].stmts;
        // The stores `array[counter].field = …` before the create, with nothing between them
        // and the create that assigns the array or the counter as a whole (a store into
        // another field or element cannot write this one: `field_kept`).
        let mut lows = Vec::new();
        let mut highs = Vec::new();
        for (at, stmt) in stmts[..k].iter().enumerate() {
            let StmtKind::Assign { dst, src } = &stmt.kind else {
                continue;
            };
            let (Base::Var(a), [Proj::Index(Some(i)), Proj::Field { strukt, index }]) =
                (&dst.base, dst.proj.as_slice())
            else {
                continue;
            };
            let later = stmts[at + 1..k].iter().any(|s| {
                matches!(&s.kind, StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
                    if dst.proj.is_empty()
                        && matches!(dst.base, Base::Var(v) if v == array || v == counter))
            });
            if *a != array || *i != counter || later {
                continue;
            }
            if let Some(c) = forms.start(src, 0) {
                lows.push((*strukt, *index, at, c));
            } else if let Some(c) = forms.end(src, 0) {
                highs.push((*strukt, *index, at, c));
            }
        }
        let pair = lows.iter().find_map(|(s, lo, lo_at, c)| {
            let (_, hi, hi_at, _) = highs.iter().find(|(t, _, _, d)| t == s && d == c)?;
            Some((*s, *lo, *lo_at, *hi, *hi_at))
        });
        let Some((strukt, lo, lo_at, hi, hi_at)) = pair else {
            continue;
        };
        let kept = super::field_slots::field_kept(p, strukt, lo, (f, b, lo_at), create)
            && super::field_slots::field_kept(p, strukt, hi, (f, b, hi_at), create);
        let Some((_, param, copies)) = super::field_slots::param_copies(p, g) else {
            continue;
        };
        let aliases: Vec<VarId> = std::iter::once(param)
            .chain(
                copies
                    .into_iter()
                    .filter(|&d| super::field_slots::assigned_once(p, g, d)),
            )
            .collect();
        if kept {
            let bounds = FieldBounds {
                aliases,
                strukt,
                lo,
                hi,
            };
            out.insert(g, (create, bounds));
        }
    }
    out
}

/// The own locks of `X[i]` (and of the objects its elements point to) through global pointers
/// `X` holding only allocated blocks, in the statement at `(b, k)`, for the range `range` of
/// the local `i`.
fn pointer_ranges(
    p: &Program,
    g: FuncId,
    (b, k): (BlockId, usize),
    range: &OwnLock,
    allocated: &mut super::slot_calls::AllocatedGlobals,
) -> Vec<OwnLock> {
    let i = range.object.var;
    let ids: FxHashSet<VarId> = std::iter::once(i).collect();
    let stmt = &p.funcs[g].blocks[b].stmts[k];
    let mut out = Vec::new();
    for (x, _) in super::slot_calls::indexed_pointers(p, g, &ids, &stmt.kind) {
        out.extend(super::slot_calls::element_locks(p, x, i, range, allocated));
    }
    out
}

/// The globals every thread of one create reads alike (see the module doc), found on demand.
struct FixedGlobals<'p> {
    p: &'p Program,
    create: (FuncId, BlockId, usize),
    /// The blocks of the creator reachable from the create's block's successors.
    after: FxHashSet<BlockId>,
    known: std::cell::RefCell<FxHashMap<VarId, bool>>,
}

impl<'p> FixedGlobals<'p> {
    fn new(p: &'p Program, create: (FuncId, BlockId, usize)) -> FixedGlobals<'p> {
        let (f, b, _) = create;
        let func = &p.funcs[f];
        let mut after = FxHashSet::default();
        let mut stack = func.blocks[b].term.successors();
        while let Some(x) = stack.pop() {
            if after.insert(x) {
                stack.extend(func.blocks[x].term.successors());
            }
        }
        FixedGlobals {
            p,
            create,
            after,
            known: Default::default(),
        }
    }

    /// Whether the global `v` is stored only by the creator, before the create.
    fn holds(&self, v: VarId) -> bool {
        if let Some(&known) = self.known.borrow().get(&v) {
            return known;
        }
        let p = self.p;
        let var = &p.vars[v];
        let (cf, cb, ck) = self.create;
        let fixed = matches!(
            var.kind,
            VarKind::Global {
                thread_local: false,
                ..
            }
        ) && !var.address_taken
            && p.funcs.iter_enumerated().all(|(f, func)| {
                func.blocks.iter_enumerated().all(|(b, block)| {
                    block.stmts.iter().enumerate().all(|(k, s)| {
                        let names = |lv: &Lval| matches!(lv.base, Base::Var(x) if x == v);
                        let stores = match &s.kind {
                            StmtKind::Assign { dst, .. } => names(dst),
                            StmtKind::Call { dst, .. } => dst.as_ref().is_some_and(names),
                            StmtKind::Asm { operands } => operands.iter().any(names),
                            StmtKind::Eval(_) => false,
                        };
                        !stores
                            || f == p.global_init
                            || (f == cf && !self.after.contains(&b) && !(b == cb && k >= ck))
                    })
                })
            });
        self.known.borrow_mut().insert(v, fixed);
        fixed
    }
}

/// The ranges in a routine: before the statement at each point, each local `i` in its range
/// `[id·c, (id + 1)·c)`, with `c`.
type Ranges = Vec<((BlockId, usize), Vec<(VarId, Invariant)>)>;

/// The bounds' forms in one routine.
struct Forms<'p, 'f> {
    p: &'p Program,
    g: FuncId,
    bounds: Bounds,
    fixed: &'f FixedGlobals<'p>,
    /// The value of the create's last thread, when its loop says.
    last: Option<LastValue>,
}

impl Forms<'_, '_> {
    /// The one assignment of a stable local of the routine other than `id`: its source.
    fn assigned_once(&self, v: VarId) -> Option<&Operand> {
        if self.is_id(&v) || !stable_local(self.p, self.g, v) {
            return None;
        }
        let &[(b, k)] = super::program::assigned_in(self.p, self.g, v).as_slice() else {
            return None;
        };
        match &self.p.funcs[self.g].blocks[b].stmts[k].kind {
            StmtKind::Assign { dst, src } if dst.proj.is_empty() => Some(src),
            _ => None,
        }
    }

    /// The plain variable an operand reads, through conversions.
    fn var(op: &Operand) -> Option<VarId> {
        op.plain_var()
    }

    /// Whether `op` (a variable, or an operand reading one) is the slot variable.
    fn is_id(&self, op: &impl SlotOperand) -> bool {
        matches!(self.bounds, Bounds::Slot(id) if op.plain() == Some(id))
    }

    /// The field of `op`, when it reads a field of the thread's element through an alias.
    fn element_field(&self, op: &Operand) -> Option<(StructId, u32)> {
        let Bounds::Fields(FieldBounds { aliases, .. }) = &self.bounds else {
            return None;
        };
        match op.without_casts() {
            Operand::Use(Lval {
                base: Base::Deref(ptr),
                proj,
                ..
            }) => match proj.as_slice() {
                [Proj::Field { strukt, index }]
                    if Self::var(ptr).is_some_and(|v| aliases.contains(&v)) =>
                {
                    Some((*strukt, *index))
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn integer(&self, t: crate::ir::ctypes::TypeId) -> bool {
        !matches!(self.p.types.get(t), Type::Float | Type::Pointer(_))
    }

    /// The invariant an operand computes, if it is one (`depth` bounds the locals followed).
    fn invariant(&self, op: &Operand, depth: u32) -> Option<Invariant> {
        if depth > 8 {
            return None;
        }
        match op {
            Operand::Const(t, Some(n)) if self.integer(*t) => Some(Invariant::Const(*n)),
            Operand::Cast(t, inner) if self.integer(*t) => Some(Invariant::Cast(
                *t,
                Box::new(self.invariant(inner, depth + 1)?),
            )),
            Operand::Arith(t, op, ops) if self.integer(*t) => {
                let ops = ops
                    .iter()
                    .map(|o| self.invariant(o, depth + 1))
                    .collect::<Option<Vec<_>>>()?;
                Some(Invariant::Arith(*t, *op, ops))
            }
            Operand::Use(Lval {
                base: Base::Var(v),
                proj,
                ..
            }) if proj.is_empty() && self.integer(self.p.vars[*v].ty) => {
                let fixed = match self.p.vars[*v].kind {
                    VarKind::Global { .. } => self.fixed.holds(*v),
                    _ => self
                        .assigned_once(*v)
                        .is_some_and(|src| self.invariant(src, depth + 1).is_some()),
                };
                fixed.then_some(Invariant::Var(*v))
            }
            _ => None,
        }
    }

    /// `c` when `op` computes `id·c`: `id * c`, `c * id`, or a local assigned once from one.
    /// With bounds in the element: the lower field read, or a local assigned once from it.
    fn start(&self, op: &Operand, depth: u32) -> Option<Invariant> {
        if depth > 8 {
            return None;
        }
        if let Bounds::Fields(FieldBounds { strukt, lo, .. }) = self.bounds {
            if self.element_field(op) == Some((strukt, lo)) {
                return Some(Invariant::Field(strukt, lo));
            }
            let src = self.assigned_once(Self::var(op)?)?;
            return self.start(src, depth + 1);
        }
        match op.without_casts() {
            Operand::Arith(t, ArithOp::Mul, ops) if self.integer(*t) => match ops.as_slice() {
                [a, c] | [c, a] if self.is_id(a) => self.invariant(c, 0),
                _ => None,
            },
            other => {
                let src = self.assigned_once(Self::var(other)?)?;
                self.start(src, depth + 1)
            }
        }
    }

    /// `c` when `op` computes `(id + 1)·c`: `(id + 1) * c` (either order, `1 + id` too),
    /// `id·c + c` with `id·c` of [`Forms::start`]'s forms, or a local assigned once from one.
    fn end(&self, op: &Operand, depth: u32) -> Option<Invariant> {
        if depth > 8 {
            return None;
        }
        if let Bounds::Fields(FieldBounds { strukt, lo, hi, .. }) = self.bounds {
            if self.element_field(op) == Some((strukt, hi)) {
                return Some(Invariant::Field(strukt, lo));
            }
            let src = self.assigned_once(Self::var(op)?)?;
            return self.end(src, depth + 1);
        }
        let next = |o: &Operand| match o.without_casts() {
            Operand::Arith(t, ArithOp::Add, ops) if self.integer(*t) => matches!(
                ops.as_slice(),
                [a, Operand::Const(_, Some(1))] | [Operand::Const(_, Some(1)), a] if self.is_id(a)
            ),
            _ => false,
        };
        match op.without_casts() {
            Operand::Arith(t, ArithOp::Mul, ops) if self.integer(*t) => match ops.as_slice() {
                [a, c] | [c, a] if next(a) => self.invariant(c, 0),
                _ => None,
            },
            Operand::Arith(t, ArithOp::Add, ops) if self.integer(*t) => {
                let [a, b] = ops.as_slice() else {
                    return None;
                };
                let sum = |s: &Operand, c: &Operand| {
                    let k = self.start(s, 0)?;
                    (self.invariant(c, 0)? == k).then_some(k)
                };
                sum(a, b).or_else(|| sum(b, a))
            }
            other => {
                let src = self.assigned_once(Self::var(other)?)?;
                self.end(src, depth + 1)
            }
        }
    }

    /// The facts a statement leaves of the facts before it.
    fn step(&self, facts: &mut Vec<Fact>, kind: &StmtKind) {
        let (dst, src) = match kind {
            StmtKind::Assign { dst, src } => (dst, Some(src)),
            StmtKind::Call { dst: Some(dst), .. } => (dst, None),
            StmtKind::Asm { operands } => {
                for lv in operands {
                    if let Base::Var(v) = lv.base {
                        facts.retain(|f| f.var() != Some(v));
                    }
                }
                return;
            }
            _ => return,
        };
        let Base::Var(i) = dst.base else { return };
        let upper = match src {
            Some(src) if dst.proj.is_empty() && stable_local(self.p, self.g, i) => {
                self.upper(facts, src)
            }
            _ => None,
        };
        let kept: Vec<Fact> = match src {
            // `i = id * c`: i starts its range.
            Some(src) if dst.proj.is_empty() && stable_local(self.p, self.g, i) => {
                if let Some(c) = self.start(src, 0) {
                    vec![Fact::AtLeast(i, c)]
                } else if self.increases(i, src) {
                    facts
                        .iter()
                        .filter(|f| matches!(f, Fact::AtLeast(v, _) if *v == i))
                        .cloned()
                        .collect()
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        };
        facts.retain(|f| f.var() != Some(i));
        facts.extend(kept);
        facts.extend(upper.map(|c| Fact::Upper(i, c)));
        facts.sort();
    }

    /// What `src` says of a variable assigned it, as a bound: `Some(Some(c))` when it computes
    /// `(id + 1)·c` (or copies a variable known to be at most that, or the last thread's
    /// wildcard), `Some(None)` when anything does because the thread is the last.
    fn upper(&self, facts: &[Fact], src: &Operand) -> Option<Option<Invariant>> {
        if let Some(c) = self.end(src, 0) {
            return Some(Some(c));
        }
        if let Some(w) = Self::var(src) {
            let known = facts.iter().find_map(|f| match f {
                Fact::Upper(v, c) if *v == w => Some(c.clone()),
                _ => None,
            });
            if known.is_some() {
                return known;
            }
        }
        facts.contains(&Fact::Last).then_some(None)
    }

    /// Whether `src` is `i + k` for a constant `k ≥ 0`.
    fn increases(&self, i: VarId, src: &Operand) -> bool {
        match src.without_casts() {
            Operand::Arith(t, ArithOp::Add, ops) if self.integer(*t) => matches!(
                ops.as_slice(),
                [a, Operand::Const(_, Some(k))] | [Operand::Const(_, Some(k)), a]
                    if *k >= 0 && Self::var(a) == Some(i)
            ),
            _ => false,
        }
    }

    /// The fact a branch's condition gives on its `then` side (`true`) or its `else` side,
    /// given the facts before it.
    fn branch_fact(&self, facts: &[Fact], cond: &Operand) -> Option<(bool, Fact)> {
        let Operand::Arith(_, ArithOp::Compare(cmp), ops) = cond.without_casts() else {
            return None;
        };
        let [l, r] = ops.as_slice() else {
            return None;
        };
        let below = |i: &Operand, bound: &Operand| {
            let i = Self::var(i).filter(|v| !self.is_id(v) && stable_local(self.p, self.g, *v))?;
            let c = match self.end(bound, 0) {
                Some(c) => Some(c),
                None => {
                    let w = Self::var(bound)?;
                    facts.iter().find_map(|f| match f {
                        Fact::Upper(v, c) if *v == w => Some(c.clone()),
                        _ => None,
                    })?
                }
            };
            Some(Fact::Below(i, c))
        };
        let last = || {
            let is_last = (self.is_id(l) && self.is_last_value(r))
                || (self.is_id(r) && self.is_last_value(l));
            is_last.then_some(Fact::Last)
        };
        match cmp {
            Comparison::Lt => Some((true, below(l, r)?)),
            Comparison::Gt => Some((true, below(r, l)?)),
            Comparison::Ge => Some((false, below(l, r)?)),
            Comparison::Le => Some((false, below(r, l)?)),
            Comparison::Eq => Some((true, last()?)),
            Comparison::Ne => Some((false, last()?)),
        }
    }

    /// Whether `op` computes the value of the create's last thread ([`Forms::last`]).
    fn is_last_value(&self, op: &Operand) -> bool {
        let Some(last) = self.last else {
            return false;
        };
        match (last, op.without_casts()) {
            (LastValue::Const(n), op) => constant(op) == Some(n),
            (LastValue::Global { var, minus_one }, op) => {
                if !minus_one {
                    return Self::var(op) == Some(var);
                }
                matches!(op, Operand::Arith(_, ArithOp::Sub, ops)
                    if matches!(ops.as_slice(), [g, one]
                        if Self::var(g) == Some(var) && constant(one) == Some(1)))
            }
        }
    }

    /// The ranges held before each statement: the locals `i` with both facts for one `c`.
    fn analyse(&self) -> Ranges {
        let func = &self.p.funcs[self.g];
        let n = func.blocks.len();
        // A routine that never starts a range has none.
        let starts = func.blocks.iter().flat_map(|b| &b.stmts).any(
            |s| matches!(&s.kind, StmtKind::Assign { src, .. } if self.start(src, 0).is_some()),
        );
        if n == 0 || !starts {
            return Vec::new();
        }
        let entry = self.entry_facts();
        let mut out = Vec::new();
        for (b, block) in func.blocks.iter_enumerated() {
            let Some(mut facts) = entry[b.0 as usize].clone() else {
                continue;
            };
            for (k, stmt) in block.stmts.iter().enumerate() {
                let ranges: Vec<(VarId, Invariant)> = facts
                    .iter()
                    .filter_map(|f| match f {
                        Fact::AtLeast(i, c)
                            if facts.contains(&Fact::Below(*i, Some(c.clone())))
                                || facts.contains(&Fact::Below(*i, None)) =>
                        {
                            Some((*i, c.clone()))
                        }
                        _ => None,
                    })
                    .collect();
                if !ranges.is_empty() {
                    out.push(((b, k), ranges));
                }
                self.step(&mut facts, &stmt.kind);
            }
        }
        out
    }

    /// The facts at the entry of each block (`None`: no path reaches it), by a forward must
    /// analysis whose branches add what their condition says on each side.
    fn entry_facts(&self) -> Vec<Option<Vec<Fact>>> {
        let func = &self.p.funcs[self.g];
        crate::analyses::must::entry_facts(
            func,
            &|facts, kind| self.step(facts, kind),
            &|facts, cond, then_side| match self.branch_fact(facts, cond) {
                Some((on_then, fact)) if on_then == then_side => vec![fact],
                _ => Vec::new(),
            },
            &|into, incoming| meet(into, incoming),
        )
    }
}

/// A variable, or an operand that may read one plainly: what [`Forms::is_id`] compares.
trait SlotOperand {
    fn plain(&self) -> Option<VarId>;
}

impl SlotOperand for VarId {
    fn plain(&self) -> Option<VarId> {
        Some(*self)
    }
}

impl SlotOperand for Operand {
    fn plain(&self) -> Option<VarId> {
        Forms::var(self)
    }
}

/// The value of the last thread a clean counted loop hands over, when its bound is a constant
/// or a global every thread of the create reads alike: one less than the bound of `i < n` or
/// `i != n`, the bound of `i <= n`.
fn last_value(l: &crate::ir::CountedLoop, fixed: &FixedGlobals<'_>) -> Option<LastValue> {
    use crate::ir::{LoopBound, LoopCmp};
    let minus_one = matches!(l.op, LoopCmp::Lt | LoopCmp::Ne);
    match l.bound {
        LoopBound::Const(n) => Some(LastValue::Const(if minus_one {
            n.checked_sub(1)?
        } else {
            n
        })),
        LoopBound::Var(var) if fixed.holds(var) => Some(LastValue::Global { var, minus_one }),
        _ => None,
    }
}

/// The value of an integer constant expression of constants, `+`, `-` and `*`.
fn constant(op: &Operand) -> Option<i64> {
    match op.without_casts() {
        Operand::Const(_, Some(n)) => Some(*n),
        Operand::Arith(_, op, ops) => match (op, ops.as_slice()) {
            (ArithOp::Add, [a, b]) => constant(a)?.checked_add(constant(b)?),
            (ArithOp::Sub, [a, b]) => constant(a)?.checked_sub(constant(b)?),
            (ArithOp::Mul, [a, b]) => constant(a)?.checked_mul(constant(b)?),
            (ArithOp::Neg, [a]) => constant(a)?.checked_neg(),
            _ => None,
        },
        _ => None,
    }
}
