//! A thread's slot carried into its callees and into blocks a global pointer holds
//! (`Package::Slot`, an inferred unpack, paper §3.3 figure 10's [Unpack] taken further as in
//! [`super`]):
//!
//! ```c
//! static long *sums;                    // every store of it is an allocation's result
//! static void add(long id, long v) {
//!     sums[id] += v;                    // the callee's parameter is the caller's slot
//! }
//! static void *work(void *arg) {
//!     long id = (long)arg;              // the slot: no other thread has this value
//!     add(id, 1);
//! }
//! ```
//!
//! **Callees** ([`SlotCalls`]). A function whose every call, from the slot routines of one
//! create or from such callees, passes the caller's slot variable unchanged (through integer
//! conversions, as the routine's own copy of its argument) as one parameter that the callee
//! never assigns and whose address it never takes, is called only with that thread's value:
//! its accesses `X[param]` are in the same slot. A function with any other call (from `main`,
//! from another create's threads, or with another argument), whose address is taken (it may be
//! called through a pointer) or that lies on a cycle of calls gets no slot.
//!
//! **Blocks held by a global pointer** ([`pointer_slots`]). `X[id]` through a global pointer
//! `X` (not thread-local) whose address is never taken and whose every store in the program is
//! the result of an allocation (`malloc`, `calloc`, `realloc`, an allocation wrapper): whenever
//! two threads read `X`, they find one block, or two blocks that were both allocated and so do
//! not overlap while both are live; two threads with different values of `id` touch different
//! elements. A thread that goes on indexing a block after another thread replaced and freed it
//! is a use after free, which locksmith does not look for.
//!
//! **Objects the elements point to** ([`AllocatedGlobals::distinct`]). When such an `X` holds
//! pointers, is read only to reach an element (`X[k]`, `*X`), to be compared, or by `free` and
//! `realloc`, and every store into an element is an allocation made for that store alone (a
//! call's result, or a local allocated just before in the same block and stored nowhere else
//! in the block), no element ever
//! points to another's object: nothing copies the block or an element into another element.
//! The thread's accesses `X[id]->f` then touch its own object (`Step::PtrPointee`).
//!
//! This module reads the IR and the library model only.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{stable_local, OwnLock, Package, Path, Step};
use crate::ir::ctypes::Type;
use crate::ir::{
    ArithOp, Base, BlockId, Callee, FuncId, Lval, Operand, Program, StmtKind, Term, VarId, VarKind,
};
use crate::model::Kind;

/// The slots each function's entry is called with, as the calls of the functions analysed so
/// far (callers first) hand them on: `None` until a call of it is seen; a call that hands on
/// less leaves only what both hand on.
#[derive(Default)]
pub(super) struct SlotCalls {
    entry: FxHashMap<FuncId, Vec<OwnLock>>,
}

impl SlotCalls {
    /// Records a call of the user function `g` with `args` from a function whose statements
    /// hold the slots `slots` (only the slots of a variable are handed on).
    pub(super) fn record_call(
        &mut self,
        p: &Program,
        g: FuncId,
        slots: &[OwnLock],
        args: &[Operand],
    ) {
        let passed = handed_on(p, g, slots, args);
        match self.entry.entry(g) {
            std::collections::hash_map::Entry::Occupied(mut held) => {
                held.get_mut().retain(|h| passed.contains(h))
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(passed);
            }
        }
    }

    /// The slots every call of `g` hands on (none for a function that may be called otherwise:
    /// the caller says which, see [`super::program::analyse_program`]).
    pub(super) fn of(&self, g: FuncId) -> &[OwnLock] {
        self.entry.get(&g).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The slots of `slots` that a call of `g` with `args` hands on: a slot variable passed as a
/// parameter of `g` that `g` never assigns, named by that parameter.
fn handed_on(p: &Program, g: FuncId, slots: &[OwnLock], args: &[Operand]) -> Vec<OwnLock> {
    let mut out = Vec::new();
    for h in slots {
        if !matches!(h.package, Package::Slot(..) | Package::Claim(_))
            || h.object.deref.is_some()
            || !h.object.steps.is_empty()
        {
            continue;
        }
        for (a, &param) in args.iter().zip(&p.funcs[g].params) {
            if a.plain_var() == Some(h.object.var)
                && stable_local(p, g, param)
                && super::program::assigned_in(p, g, param).is_empty()
            {
                out.push(OwnLock {
                    object: Path {
                        deref: None,
                        var: param,
                        steps: Vec::new(),
                    },
                    ..h.clone()
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The global pointers whose every store is an allocation's result, and those of them whose
/// block's elements each only ever hold a fresh object of their own, found on demand.
#[derive(Default)]
pub(super) struct AllocatedGlobals {
    known: FxHashMap<VarId, bool>,
    distinct: FxHashMap<VarId, bool>,
}

impl AllocatedGlobals {
    /// Whether every store of the global pointer `x` in the program is an allocation's result,
    /// and nothing else can change it (see the module doc).
    pub(super) fn holds(&mut self, p: &Program, x: VarId) -> bool {
        *self.known.entry(x).or_insert_with(|| {
            let var = &p.vars[x];
            let qualifies = matches!(
                var.kind,
                VarKind::Global {
                    thread_local: false,
                    ..
                }
            ) && !var.address_taken
                && matches!(p.types.get(var.ty), Type::Pointer(_));
            qualifies && only_allocated(p, x)
        })
    }
}

impl AllocatedGlobals {
    /// Whether the elements of the blocks the global pointer `x` holds each point to an object
    /// of their own: `x` holds only allocated blocks ([`AllocatedGlobals::holds`]), of
    /// pointers; every store into an element `x[k]` is an allocation made for it alone; and `x`
    /// is read
    /// only to reach an element, or by `free` and `realloc` (which moves the elements), so
    /// nothing else can write an element or copy the block.
    pub(super) fn distinct(&mut self, p: &Program, x: VarId) -> bool {
        if let Some(&known) = self.distinct.get(&x) {
            return known;
        }
        let of_pointers = matches!(p.types.get(p.vars[x].ty),
            Type::Pointer(e) if matches!(p.types.get(*e), Type::Pointer(_)));
        let distinct = of_pointers && self.holds(p, x) && elements_fresh(p, x);
        self.distinct.insert(x, distinct);
        distinct
    }
}

/// Whether every use of the global pointer `x` reaches an element `*(x + k)` or `*x` (or is
/// `free`'s or `realloc`'s argument, or only compared), and every store into an element stores
/// an allocation's result.
fn elements_fresh(p: &Program, x: VarId) -> bool {
    /// Whether an lvalue is an element of the block `x` holds: `*(x + k)` or `*x`.
    fn element_of(lv: &Lval, x: VarId) -> bool {
        matches!(&lv.base, Base::Deref(op) if match op.without_casts() {
            Operand::Arith(_, ArithOp::Add, ops) => ops.first().and_then(Operand::plain_var) == Some(x),
            other => other.plain_var() == Some(x),
        })
    }
    /// Counts the mentions of `x` by name, and those that are an element's base or only
    /// compared (`if (!x)`, `x == NULL`).
    struct Uses {
        x: VarId,
        reads: usize,
        elements: usize,
    }
    impl crate::ir::visit::Visitor for Uses {
        fn visit_operand(&mut self, op: &Operand) {
            if let Operand::Arith(_, ArithOp::Compare(_) | ArithOp::Not, ops) = op {
                self.elements += ops.iter().filter(|o| o.plain_var() == Some(self.x)).count();
            }
            crate::ir::visit::walk_operand(self, op);
        }
        fn visit_lval(&mut self, lv: &Lval) {
            if element_of(lv, self.x) {
                self.elements += 1;
            }
            if matches!(lv.base, Base::Var(v) if v == self.x) {
                self.reads += 1;
            }
            crate::ir::visit::walk_lval(self, lv);
        }
    }
    let element = |lv: &Lval| element_of(lv, x);
    let mut uses = Uses {
        x,
        reads: 0,
        elements: 0,
    };
    // The mentions of `x` allowed besides elements: its own stores (allocations, as `holds`
    // found) and the block handed to `free` or `realloc`.
    let mut allowed = 0;
    // The locals whose allocation an element store stores: each at most once.
    let mut stored: FxHashSet<VarId> = FxHashSet::default();
    for (f, func) in p.funcs.iter_enumerated() {
        let stmts = func
            .blocks
            .iter_enumerated()
            .flat_map(|(b, block)| block.stmts.iter().enumerate().map(move |(k, s)| (b, k, s)));
        for (b, k, stmt) in stmts {
            // A store into an element (not into the object it points to) must store a fresh
            // object: a call's result, or a local's allocated earlier in the same block (so
            // once per run of the store) and stored into no other element.
            let fresh = match &stmt.kind {
                StmtKind::Assign { dst, src } if element(dst) => {
                    dst.proj.is_empty()
                        && allocation_of(p, f, src).is_some_and(|(t, at_b, at_k)| {
                            at_b == b && at_k < k && stored.insert(t)
                        })
                }
                StmtKind::Call {
                    dst: Some(dst),
                    callee,
                    ..
                } if element(dst) => dst.proj.is_empty() && allocates(p, callee),
                StmtKind::Asm { operands } => !operands.iter().any(element),
                _ => true,
            };
            if !fresh {
                return false;
            }
            if let StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } = &stmt.kind
            {
                allowed += usize::from(matches!(dst.base, Base::Var(v) if v == x));
            }
            if let StmtKind::Call {
                callee: Callee::Direct(g),
                args,
                ..
            } = &stmt.kind
            {
                if matches!(
                    p.known_kind(*g),
                    Some(Kind::Free { .. } | Kind::Realloc { .. })
                ) {
                    allowed += args.iter().filter(|a| a.plain_var() == Some(x)).count();
                }
            }
            crate::ir::visit::walk_stmt(&mut uses, &stmt.kind);
        }
        for block in func.blocks.iter() {
            // A branch on `x` itself only tests it.
            if let Term::Branch { cond, .. } = &block.term {
                allowed += usize::from(cond.plain_var() == Some(x));
            }
            crate::ir::visit::walk_term(&mut uses, &block.term);
        }
    }
    uses.reads == uses.elements + allowed
}

/// Whether every statement that stores into the variable `x` stores an allocation's result
/// into `x` itself: a call's, or a local's (`x = tmp` after the conversion of `tmp =
/// malloc(…)`) that is assigned only there.
fn only_allocated(p: &Program, x: VarId) -> bool {
    let names = |lv: &Lval| matches!(lv.base, Base::Var(v) if v == x);
    p.funcs.iter_enumerated().all(|(f, func)| {
        func.blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .all(|s| match &s.kind {
                StmtKind::Assign { dst, src } if names(dst) => {
                    dst.proj.is_empty() && allocated_local(p, f, src)
                }
                StmtKind::Call {
                    dst: Some(dst),
                    callee,
                    ..
                } if names(dst) => dst.proj.is_empty() && allocates(p, callee),
                StmtKind::Asm { operands } => !operands.iter().any(names),
                _ => true,
            })
    })
}

/// Whether a call returns fresh memory (or, `realloc`, the block it was given or a fresh one).
fn allocates(p: &Program, callee: &Callee) -> bool {
    match callee {
        Callee::Direct(g) => {
            p.is_alloc_wrapper(*g)
                || p.known(*g).is_some_and(|s| s.fresh_result)
                || matches!(p.known_kind(*g), Some(Kind::Realloc { .. }))
        }
        Callee::Indirect(_) => false,
    }
}

/// Whether `op` (through conversions) is a stable local of `f` whose one assignment is an
/// allocation's result.
fn allocated_local(p: &Program, f: FuncId, op: &Operand) -> bool {
    allocation_of(p, f, op).is_some()
}

/// The stable local of `f` that holds the allocation `op` reads (through conversions), with
/// where it is assigned: `op` itself, when its one assignment is an allocation's result, or the
/// local `op`'s one assignment copies, earlier in the same block, whose one assignment is the
/// allocation (`t = s_malloc(n); tmp = t;`, as the lowering writes some calls). Each run of
/// the copy copies a fresh object, and the allocation's own local names it, so that two copies
/// of one allocation are seen as one.
fn allocation_of(p: &Program, f: FuncId, op: &Operand) -> Option<(VarId, BlockId, usize)> {
    let once = |op: &Operand| {
        let t = op.plain_var().filter(|&t| stable_local(p, f, t))?;
        match super::program::assigned_in(p, f, t).as_slice() {
            &[(b, k)] => Some((t, b, k, &p.funcs[f].blocks[b].stmts[k].kind)),
            _ => None,
        }
    };
    let allocated = |kind: &StmtKind| {
        matches!(kind, StmtKind::Call { dst: Some(d), callee, .. }
            if d.proj.is_empty() && allocates(p, callee))
    };
    let (t, b, k, kind) = once(op)?;
    if allocated(kind) {
        return Some((t, b, k));
    }
    let StmtKind::Assign { src, .. } = kind else {
        return None;
    };
    let (u, from_b, from_k, from) = once(src)?;
    (from_b == b && from_k < k && allocated(from)).then_some((u, from_b, from_k))
}

/// The slots of the elements `X[id]` that `f` indexes through a global pointer `X` holding only
/// allocated blocks, for each of `f`'s slot variables `id` (see the module doc): the object
/// `X[id]` (`Step::PtrIndex`), in the slot's package.
pub(super) fn pointer_slots(
    p: &Program,
    f: FuncId,
    slots: &[OwnLock],
    allocated: &mut AllocatedGlobals,
) -> Vec<OwnLock> {
    let ids: FxHashSet<VarId> = slots
        .iter()
        .filter(|h| h.object.deref.is_none() && h.object.steps.is_empty())
        .map(|h| h.object.var)
        .collect();
    if ids.is_empty() {
        return Vec::new();
    }
    let mut indexed: Vec<(VarId, VarId)> = p.funcs[f]
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .flat_map(|s| indexed_pointers(p, f, &ids, &s.kind))
        .collect();
    indexed.sort();
    indexed.dedup();
    let mut out = Vec::new();
    for (x, i) in indexed {
        for h in slots.iter().filter(|h| h.object.var == i) {
            out.extend(element_locks(p, x, i, h, allocated));
        }
    }
    out
}

/// The own locks, in `slot`'s package, of the element `x[i]` of the block the global pointer
/// `x` holds ([`Step::PtrIndex`]) and of the object it points to ([`Step::PtrPointee`]), as far
/// as `x` allows.
pub(super) fn element_locks(
    p: &Program,
    x: VarId,
    i: VarId,
    slot: &OwnLock,
    allocated: &mut AllocatedGlobals,
) -> Vec<OwnLock> {
    let mut out = Vec::new();
    if !allocated.holds(p, x) {
        return out;
    }
    let lock = |step: Step| OwnLock {
        object: Path {
            deref: Some(p.vars[x].ty),
            var: x,
            steps: vec![step],
        },
        ..slot.clone()
    };
    out.push(lock(Step::PtrIndex(i)));
    if allocated.distinct(p, x) {
        out.push(lock(Step::PtrPointee(i)));
    }
    out
}

/// The elements `X[i]` a statement of `f` dereferences, through a global pointer `X` by one of
/// `ids`: the pairs `(X, i)`.
pub(super) fn indexed_pointers(
    p: &Program,
    f: FuncId,
    ids: &FxHashSet<VarId>,
    kind: &StmtKind,
) -> Vec<(VarId, VarId)> {
    let mut found = Indexed {
        p,
        f,
        ids,
        indexed: Vec::new(),
    };
    crate::ir::visit::walk_stmt(&mut found, kind);
    found.indexed
}

/// The elements `X[i]` a function dereferences, through a global pointer `X` by one of `ids`.
struct Indexed<'a> {
    p: &'a Program,
    f: FuncId,
    ids: &'a FxHashSet<VarId>,
    indexed: Vec<(VarId, VarId)>,
}

impl crate::ir::visit::Visitor for Indexed<'_> {
    fn visit_lval(&mut self, lv: &Lval) {
        if let Base::Deref(op) = &lv.base {
            if let Some((x, i)) = global_index(self.p, self.f, op) {
                if self.ids.contains(&i) {
                    self.indexed.push((x, i));
                }
            }
        }
        crate::ir::visit::walk_lval(self, lv);
    }
}

/// `X + i` (through conversions, in either order) for a global pointer `X` read by name and a
/// stable local `i`.
pub(super) fn global_index(p: &Program, f: FuncId, op: &Operand) -> Option<(VarId, VarId)> {
    let Operand::Arith(_, _, ops) = op.without_casts() else {
        return None;
    };
    let [a, b] = ops.as_slice() else {
        return None;
    };
    let (a, b) = (a.plain_var()?, b.plain_var()?);
    let global = |v: VarId| {
        matches!(p.vars[v].kind, VarKind::Global { .. })
            && matches!(p.types.get(p.vars[v].ty), Type::Pointer(_))
    };
    match (global(a), global(b)) {
        (true, false) if stable_local(p, f, b) => Some((a, b)),
        (false, true) if stable_local(p, f, a) => Some((b, a)),
        _ => None,
    }
}
