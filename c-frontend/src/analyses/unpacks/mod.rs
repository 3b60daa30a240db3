//! Inferred unpacks (paper §3.3, figure 10, taken further): where a function certainly holds the
//! lock that lies in the *same object* as the data it accesses.
//!
//! The paper packs a struct that holds a lock with the data it guards into an existential
//! package; inside an `unpack` the lock and the data get fresh labels ℓ′ and ρ′ that stand for
//! *this* object's lock and data only, so an access of ρ′ holding ℓ′ is correlated with its own
//! lock even when the objects are many (allocated in a loop, kept in a list) and their lock label
//! is therefore not linear. LOCKSMITH needed the packs and unpacks written by hand; here they are
//! inferred for the common shape, *lock the object, use the object*:
//!
//! ```c
//! pthread_mutex_lock(&n->lock);   // unpack n: its lock is held
//! n->count++;                     // ρ′ ▷ ℓ′: n's own count under n's own lock
//! pthread_mutex_unlock(&n->lock);
//! ```
//!
//! An *object path* names one object without reading memory: `*v` for a local pointer `v` whose
//! address is never taken (so no store through another pointer can change it), or a variable,
//! followed by fields and by indices that are such locals or constants. A flow-sensitive *must*
//! analysis over the IR keeps the [`OwnLock`]s certainly held: an acquire of `&O.f` (the lock at
//! field path `f` of the object `O`), directly or through a lock wrapper, adds one; it is removed
//! when any variable of `O` is assigned, and by every call that may release it ([`releases`]:
//! a release of a variable's own lock removes only the own locks that may lie in that
//! variable; a call through a pointer or into code locksmith cannot see removes them all).
//! An access whose lvalue lies inside `O` (its path extends `O`'s) while `O`'s lock is held is
//! *inside the unpack*: the access carries the package's opened lock (`AccessInfo::opened`), one
//! lock per [`Package`] (struct type and field path of the lock), linear and held nowhere else.
//! [`program`] extends this across calls, and to the fresh objects threads are created with.
//! Lock striping (`lock(&m[i]); d[i]++`, a global array of locks `m`) is a package too
//! ([`Package::Stripe`]): the lock is the element of `m` at the index of the access.
//!
//! Why that is sound: two accesses of one memory cell that both hold their package's lock
//! (`S`, `f`) each lie in an object of type `S` that contains the cell, and each hold that
//! object's lock at `f`; two distinct objects of one struct type never overlap in a well-typed
//! program (the assumption the `void *` model already makes), so it is the same object and the
//! same lock. An access that is not inside an unpack does not hold the opened lock, so it still
//! races with the others: a field written after the unlock, another node's data written under
//! this node's lock, a pointer to a guarded field used elsewhere, a publication before the
//! initialisation is complete.
//!
//! This module reads the IR and the library model only; it never creates labels.

mod field_slots;
mod lists;
mod owning;
mod program;
mod ranges;
mod releases;
mod slot_calls;

pub use owning::OwningPlaces;
pub(crate) use program::assigned_in;
pub use program::{analyse_ownership, analyse_program};
pub use releases::{releasers, Released, Releases};

use rustc_hash::{FxHashMap, FxHashSet};
use solver::dataflow;

use releases::{may_contain, Params};

use crate::analyses::calls::Calls;
use crate::ir::ctypes::{StructId, TypeId};
use crate::ir::{Base, BlockId, Callee, FuncId, Lval, Operand, Program, Proj, StmtKind, VarId};
use crate::ir::{Term, VarKind};
use crate::model::{Kind, LockMode};

/// One step of an object path.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Step {
    Field(StructId, u32),
    /// An index by a local no other code can change.
    Index(VarId),
    /// An index by an integer constant.
    Const(i64),
    /// An index by anything else: the path names no single object past it.
    AnyIndex,
    /// `v[i]` through the pointer `v` (a path's first step, `deref` being `v`'s type): the
    /// element at a stable local index `i` of the memory `v` points into. Only the creator's
    /// side of an element hand-off holds such an object (`program::hand_over_elements`), and
    /// only [`pointer_element`] finds accesses inside it: pointer arithmetic otherwise leaves
    /// every object.
    PtrIndex(VarId),
    /// `*a[i]`: the object the element at a stable local index `i` of the local array of
    /// pointers `a` points to (a path's only step, `deref` being the element's type). Only a
    /// creator taking back the object it handed to a thread holds such an object
    /// (`program::take_back_objects`), and only [`pointer_element`] finds accesses inside it.
    Pointee(VarId),
    /// `*v->f`: the object the pointer field `f` of `*v` points to (a path's only step, for a
    /// stable local `v`). Only a thread's slot by a pointer field holds such an object
    /// (`field_slots::pointee_slots`), and an append through a member tail the node it appends
    /// to ([`lists`]); only [`pointer_element`] finds accesses inside it.
    FieldPointee(StructId, u32),
    /// `*x[i]`: the object the element at a stable local index `i` of the block a global
    /// pointer `x` holds points to, when every element only ever holds its own fresh object (a
    /// path's only step, `deref` being `x`'s type). Only a thread's slot holds such an object
    /// (`slot_calls::pointer_slots`), and only [`pointer_element`] finds accesses inside it.
    PtrPointee(VarId),
}

/// Where an lvalue lies: `*var` (through a pointer of type `ty`) or the variable itself, then
/// the steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Path {
    deref: Option<TypeId>,
    var: VarId,
    steps: Vec<Step>,
}

impl Path {
    /// Whether the path reads the variable `v` to find its object.
    fn mentions(&self, v: VarId) -> bool {
        (self.deref.is_some() && self.var == v)
            || self.steps.contains(&Step::Index(v))
            || self.steps.contains(&Step::Pointee(v))
    }

    /// Whether `self` lies inside the object `object` (its path extends the object's). With
    /// `any_view`, the pointer may be converted to another type on the way: the object is a
    /// whole allocation, which every view through the pointer stays inside.
    fn inside(&self, object: &Path, any_view: bool) -> bool {
        (self.deref == object.deref || (any_view && self.deref.is_some() && object.deref.is_some()))
            && self.var == object.var
            && self.steps.len() >= object.steps.len()
            && self.steps[..object.steps.len()] == object.steps[..]
    }
}

/// The package of an opened lock (the existential type of §3.3). Every access inside an unpack
/// of one package holds the package's one opened lock.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Package {
    /// The lock at this field path of objects of the struct (or union) type its first field
    /// belongs to (empty for a lock pointer's own object, which guards nothing).
    Lock(Vec<(StructId, u32)>),
    /// An object handed over to a thread at its creation: fresh, reachable by no other thread,
    /// and never touched again by its creator, it belongs to the thread, whose accesses
    /// through its argument are all inside this unpack (see [`analyse_program`]).
    Thread,
    /// The element of an array (or of an allocated block) handed over to a thread by an element
    /// hand-off (`JoinPlan::element_handoffs`): the thread's accesses through its argument, and
    /// its creator's accesses of that element before the create and after the join, hold this
    /// package's lock. Unlike [`Package::Thread`], a library call through the argument (which
    /// may touch a whole array) is not inside it.
    Element,
    /// The elements a thread indexes by the value it was started with: a routine that only the
    /// create at this call starts, each time with a different value of a counted loop's
    /// counter (`JoinPlan::value_handoffs`, in `main` or another function that runs once,
    /// [`crate::analyses::once`]), keeps that value in a
    /// local assigned once; every access `X[id]…` of a global array `X` (or `X.f[id]…` of an
    /// array member of a global struct, [`in_slot`]) by that local holds this package's lock,
    /// as no two of the routine's threads index with one value.
    Slot(FuncId, BlockId, usize),
    /// The element a thread claimed from the shared counter of this number
    /// ([`crate::analyses::claims`]): every access `X[i]…` of a global array `X` by a local `i`
    /// that only holds values claimed from the counter holds this package's lock, as no two
    /// claims return one value.
    Claim(u32),
    /// The elements a thread walks from `id·c` up to `(id + 1)·c`, for the value `id` of the
    /// slot of the create at this call and a value `c` every thread of it computes alike
    /// ([`ranges`]): accesses `X[i]…` of a global array by a local `i` in that range.
    Range(FuncId, BlockId, usize, ranges::Invariant),
    /// An unpack written with `LOCKSMITH_UNPACK(p)` (`locksmith.h`) and not yet ended. It opens
    /// no lock by itself: it says where the program means the object's fields to be used, for
    /// the checks of the annotations.
    Written,
    /// An object the accessing thread owns ([`lists`]): fresh, or taken off a locked list,
    /// and not let go since. Every owned pointer's accesses hold this one lock: no two threads
    /// own one object at once, and owners follow one another in happens-before order.
    Owned,
    /// Lock striping: the element at some index of this array of locks (a global, or an array
    /// field of one at this field path) guards the elements at the same index of other arrays
    /// (`lock(&m[i]); d[i]++`, `lock(&t.locks[i]); t.data[i]++`), see `in_stripe`.
    Stripe(VarId, Vec<(StructId, u32)>),
    /// The lock at field path `.1` (empty: the block is the lock) of the block that the owning
    /// member at field path `.0` of objects of the first field's struct points to
    /// (`lock(&s->gate->mu)`, `hold(s->gate)`, with `stash.gate` owning: [`OwningPlaces`]). The
    /// block is part of the object that holds the member (figure 10's [Unpack] opens what
    /// only the object reaches, as for owning places), so its lock is that object's own
    /// lock as long as the member keeps its block while threads use it: a store into the
    /// member ends every such unpack in the thread that makes it (see `Analysis::step`), and
    /// the thread analysis counts the package's lock as one lock only when every store of a
    /// block into the member is made where no thread that may reach the member runs beside
    /// (`ThreadProgram::steady`).
    Behind(Vec<(StructId, u32)>, Vec<(StructId, u32)>),
}

impl Package {
    /// The field path of the lock, for a lock package.
    fn lock_steps(&self) -> Option<Vec<Step>> {
        match self {
            Package::Lock(fields) => Some(fields.iter().map(|&(s, i)| Step::Field(s, i)).collect()),
            // The lock of a block behind a member lies in no object path.
            Package::Thread
            | Package::Element
            | Package::Owned
            | Package::Slot(..)
            | Package::Claim(_)
            | Package::Range(..)
            | Package::Written
            | Package::Stripe(..)
            | Package::Behind(..) => None,
        }
    }
}

/// A lock certainly held in its own object: `object`'s lock at `package`'s field path, or the
/// ownership of a thread's argument object.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OwnLock {
    object: Path,
    pub package: Package,
    pub mode: LockMode,
}

impl OwnLock {
    /// Whether this is a thread's ownership of its argument (a whole fresh object, or a handed
    /// element), which every view through the argument stays inside.
    fn is_thread_owned(&self) -> bool {
        matches!(
            self.package,
            Package::Thread | Package::Element | Package::Owned
        )
    }
}

/// The own locks held before each statement and at each block's terminator of one function.
#[derive(Clone, Debug, Default)]
pub struct Unpacks {
    before: FxHashMap<(BlockId, usize), Vec<OwnLock>>,
    at_term: FxHashMap<BlockId, Vec<OwnLock>>,
}

impl Unpacks {
    /// The own locks held before statement `k` of block `b`.
    pub fn before(&self, b: BlockId, k: usize) -> &[OwnLock] {
        self.before.get(&(b, k)).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The own locks held when block `b`'s terminator is evaluated.
    pub fn at_term(&self, b: BlockId) -> &[OwnLock] {
        self.at_term.get(&b).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The unpack an access of `lv` in function `f` lies in, given the own locks `held` before its
/// statement: the held lock (exclusive before shared) of an object `lv` lies inside, when `lv`
/// is not that lock itself.
///
/// An access of a block only an owning place points to ([`owning`]) lies in the unpack of the
/// object holding that place.
pub fn enclosing<'h>(
    p: &Program,
    f: FuncId,
    owning: &OwningPlaces,
    held: &'h [OwnLock],
    lv: &Lval,
) -> Option<&'h OwnLock> {
    if held.is_empty() {
        return None;
    }
    enclosing_here(p, f, held, lv).or_else(|| {
        let holder = owning.holder(lv)?;
        enclosing(p, f, owning, held, holder)
    })
}

/// The unpack of [`enclosing`] for an access that names its object without an owning place.
fn enclosing_here<'h>(
    p: &Program,
    f: FuncId,
    held: &'h [OwnLock],
    lv: &Lval,
) -> Option<&'h OwnLock> {
    let Some(path) = path_of(p, f, lv) else {
        return owned_through_global(p, held, lv).or_else(|| pointer_element(p, f, held, lv));
    };
    held.iter()
        .filter(|h| h.package != Package::Written)
        .filter(|h| match h.package {
            Package::Stripe(..) => in_stripe(&path, &h.object),
            Package::Slot(..) | Package::Range(..) | Package::Claim(_) => {
                in_slot(p, &path, &h.object)
            }
            _ => path.inside(&h.object, h.is_thread_owned()),
        })
        // The lock itself is not inside its own unpack.
        .filter(|h| match h.package.lock_steps() {
            Some(lock) => !path.steps[h.object.steps.len()..].starts_with(&lock),
            None => true,
        })
        // An object's own lock before its ownership: the lock is what other accesses of the
        // object that are not owned may hold too.
        .min_by_key(|h| (h.mode == LockMode::Shared, h.package == Package::Owned))
}

/// Whether `lv` is a member of `own`'s object (a field of it, or inside one), not the object
/// itself: what a library function handed `&lv` may touch then stays in that member, while
/// given a pointer to a handed element it may walk the whole array (`qsort`, a `memset` of
/// several elements).
pub fn within_member(p: &Program, f: FuncId, own: &OwnLock, lv: &Lval) -> bool {
    path_of(p, f, lv).is_some_and(|path| {
        path.inside(&own.object, own.is_thread_owned())
            && matches!(
                path.steps.get(own.object.steps.len()),
                Some(Step::Field(..))
            )
    })
}

/// The owned package an access `(*g).f…` through a global pointer `g` lies in: only where the
/// ownership analysis says `g` points to an object the thread owns ([`lists`]: a take's unlink
/// through the head, under the list's mutex, with the head still pointing to the taken node).
fn owned_through_global<'h>(p: &Program, held: &'h [OwnLock], lv: &Lval) -> Option<&'h OwnLock> {
    let Base::Deref(op) = &lv.base else {
        return None;
    };
    let g = op.plain_var()?;
    if !matches!(p.vars[g].kind, VarKind::Global { .. }) {
        return None;
    }
    let steps = lv
        .proj
        .iter()
        .map(|s| match *s {
            Proj::Field { strukt, index } => Some(Step::Field(strukt, index)),
            Proj::Index(_) | Proj::ConstIndex(_) => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let path = Path {
        deref: Some(p.operand_type(op)),
        var: g,
        steps,
    };
    held.iter()
        .find(|h| h.package == Package::Owned && path.inside(&h.object, true))
}

/// Whether an access at `path` is `X[id]…` for a global array `X`, or `X.f[id]…` for an array
/// member of a global struct (no union on the way, whose members would overlap), and the
/// slot's index variable `id` (the slot's object names only `id`), see [`Package::Slot`].
fn in_slot(p: &Program, path: &Path, slot: &Path) -> bool {
    let var = &p.vars[path.var];
    if path.deref.is_some()
        || slot.deref.is_some()
        || path.var == slot.var
        || !matches!(
            var.kind,
            VarKind::Global {
                thread_local: false,
                ..
            }
        )
    {
        return false;
    }
    let members = path
        .steps
        .iter()
        .take_while(|s| matches!(s, Step::Field(..)))
        .count();
    if path.steps.get(members) != Some(&Step::Index(slot.var)) {
        return false;
    }
    let mut ty = var.ty;
    for step in &path.steps[..members] {
        let Step::Field(strukt, index) = *step else {
            return false;
        };
        let def = &p.types.structs[strukt];
        if def.kind == crate::ir::ctypes::StructKind::Union {
            return false;
        }
        let Some(field) = def.fields.get(index as usize) else {
            return false;
        };
        ty = field.ty;
    }
    matches!(p.types.get(ty), crate::ir::ctypes::Type::Array(_))
}

/// The own lock of the element `v[i]` an access `v[i]…` (through a stable local pointer and a
/// stable local index) lies in, when one is held (see [`Step::PtrIndex`]); or of the object an
/// access `a[i]->…` (through the element of a local array of pointers at a stable local index)
/// lies in (see [`Step::Pointee`]); or of the object an access `*v->f…` (through the pointer
/// field of a stable local's object) lies in (see [`Step::FieldPointee`]).
fn pointer_element<'h>(
    p: &Program,
    f: FuncId,
    held: &'h [OwnLock],
    lv: &Lval,
) -> Option<&'h OwnLock> {
    let Base::Deref(op) = &lv.base else {
        return None;
    };
    if let Operand::Use(Lval {
        base: Base::Deref(inner),
        proj,
        ..
    }) = op.without_casts()
    {
        if proj.is_empty() {
            let (x, i) = slot_calls::global_index(p, f, inner)?;
            return held.iter().find(|h| {
                matches!(
                    h.package,
                    Package::Slot(..) | Package::Range(..) | Package::Claim(_)
                ) && h.object.var == x
                    && h.object.steps == [Step::PtrPointee(i)]
            });
        }
        let [Proj::Field { strukt, index }] = proj.as_slice() else {
            return None;
        };
        let (v, _) = annotated_pointer(p, f, inner)?;
        // A slot by a pointer field, or the node a member tail points to at an append
        // through it (`lists`: nobody owns it, and the list's mutex orders it with owners).
        return held.iter().find(|h| {
            matches!(h.package, Package::Slot(..) | Package::Owned)
                && h.object.var == v
                && h.object.steps == [Step::FieldPointee(*strukt, *index)]
        });
    }
    if let Operand::Use(Lval {
        base: Base::Var(a),
        proj,
        ..
    }) = op.without_casts()
    {
        let [Proj::Index(Some(i))] = proj.as_slice() else {
            return None;
        };
        return held.iter().find(|h| {
            h.package == Package::Thread
                && h.object.deref.is_some()
                && h.object.var == *a
                && h.object.steps == [Step::Pointee(*i)]
                && stable_local(p, f, *i)
        });
    }
    if let Some((x, i)) = slot_calls::global_index(p, f, op) {
        return held.iter().find(|h| {
            matches!(
                h.package,
                Package::Slot(..) | Package::Range(..) | Package::Claim(_)
            ) && h.object.var == x
                && h.object.steps == [Step::PtrIndex(i)]
        });
    }
    let (v, i) = pointer_index(p, f, op)?;
    held.iter().find(|h| {
        h.package == Package::Element
            && h.object.deref.is_some()
            && h.object.var == v
            && h.object.steps == [Step::PtrIndex(i)]
    })
}

/// `v + i` (through conversions) for a stable local pointer `v` and a stable local `i`.
pub(super) fn pointer_index(p: &Program, f: FuncId, op: &Operand) -> Option<(VarId, VarId)> {
    let Operand::Arith(_, _, ops) = op.without_casts() else {
        return None;
    };
    let var = |o: &Operand| match o.without_casts() {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() && stable_local(p, f, *v) => Some(*v),
        _ => None,
    };
    match ops.as_slice() {
        [a, b] => {
            let (v, i) = (var(a)?, var(b)?);
            matches!(
                p.types.get(p.vars[v].ty),
                crate::ir::ctypes::Type::Pointer(_)
            )
            .then_some((v, i))
        }
        _ => None,
    }
}

/// Whether an access at `path` lies in the stripe of the lock `lock` (`locks[k]`, an element of
/// an array of locks named by a global and fields): it is, or lies inside, the element at the
/// same index `k` (the same stable local, or the same constant) of another array named by a
/// variable and fields. Why that is sound: two accesses of one cell in the stripes of one
/// array of locks are in one array at one index (an index projection is only ever made on an
/// array, whose elements at different indices never overlap), so they hold the same element of
/// the lock array, one lock: the global array is one object for every thread (and a local
/// data array is one run's, which only its own run names).
fn in_stripe(path: &Path, lock: &Path) -> bool {
    let Some(k) = path
        .steps
        .iter()
        .position(|s| !matches!(s, Step::Field(..)))
    else {
        return false;
    };
    let (lock_fields, lock_index) = lock.steps.split_at(lock.steps.len() - 1);
    path.deref.is_none()
        && path.steps[k] == lock_index[0]
        && (path.var, &path.steps[..k]) != (lock.var, lock_fields)
}

/// Whether `lv` lies inside an object whose written unpack is open in `held`.
pub fn in_written_unpack(p: &Program, f: FuncId, held: &[OwnLock], lv: &Lval) -> bool {
    let Some(path) = path_of(p, f, lv) else {
        return false;
    };
    held.iter()
        .any(|h| h.package == Package::Written && path.inside(&h.object, false))
}

/// Whether the written unpack of the object `*v` is open in `held`.
pub fn unpack_open(held: &[OwnLock], v: VarId) -> bool {
    held.iter()
        .any(|h| h.package == Package::Written && h.object.var == v && h.object.deref.is_some())
}

/// The variable an annotation's pointer argument names (`p`, `(void *)p`), when it is a stable
/// local of `f`, with the pointer's type.
pub fn annotated_pointer(p: &Program, f: FuncId, arg: &Operand) -> Option<(VarId, TypeId)> {
    let op = arg.without_casts();
    match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() && stable_local(p, f, *v) => Some((*v, p.vars[*v].ty)),
        _ => None,
    }
}

/// Whether a variable can be part of an object path of `f`: a local, parameter or temporary of
/// `f` whose address is never taken, so only `f`'s own assignments change it.
fn stable_local(p: &Program, f: FuncId, v: VarId) -> bool {
    let var = &p.vars[v];
    !var.address_taken
        && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g, _) if g == f)
}

/// The path of an lvalue, when its object is named without reading memory.
fn path_of(p: &Program, f: FuncId, lv: &Lval) -> Option<Path> {
    let (deref, var) = match &lv.base {
        Base::Var(v) => match p.vars[*v].kind {
            VarKind::StringLit => return None,
            _ => (None, *v),
        },
        Base::Deref(op) => {
            let ty = p.operand_type(op);
            match op.without_casts() {
                Operand::Use(Lval {
                    base: Base::Var(v),
                    proj,
                    ..
                }) if proj.is_empty() && stable_local(p, f, *v) => (Some(ty), *v),
                _ => return None,
            }
        }
    };
    let steps = lv
        .proj
        .iter()
        .map(|s| match *s {
            Proj::Field { strukt, index } => Step::Field(strukt, index),
            Proj::Index(Some(i)) if stable_local(p, f, i) => Step::Index(i),
            Proj::ConstIndex(k) => Step::Const(k),
            Proj::Index(_) => Step::AnyIndex,
        })
        .collect();
    Some(Path { deref, var, steps })
}

/// The own lock an acquire of the lock operand `arg` takes: the object is the lock's path up to
/// its last index (each element of an array is an object of its own), the package the fields
/// after it. A lock that is a whole object (`*m` for a lock pointer `m`) guards nothing in it;
/// it is kept only so that a lock wrapper taking `m` can be summarised (see `program::left_held`).
fn own_lock(
    p: &Program,
    f: FuncId,
    owning: &OwningPlaces,
    arg: &Operand,
    mode: LockMode,
) -> Option<OwnLock> {
    let op = arg.without_casts();
    let path = match op {
        Operand::AddrOf(lv) => match path_of(p, f, lv) {
            Some(path) => path,
            // A lock at the start of the block a member holds (`&s->gate->mu`): not past it
            // (`&s->gates[k].mu`, one of many).
            None => match &lv.base {
                Base::Deref(op) => match op.without_casts() {
                    Operand::Use(member) => return behind(p, f, owning, member, &lv.proj, mode),
                    _ => return None,
                },
                Base::Var(_) => return None,
            },
        },
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() && stable_local(p, f, *v) => Path {
            deref: Some(p.operand_type(op)),
            var: *v,
            steps: Vec::new(),
        },
        // A lock pointer kept in an owning member: the block is the lock.
        Operand::Use(member) => return behind(p, f, owning, member, &[], mode),
        _ => return None,
    };
    if path.steps.contains(&Step::AnyIndex) {
        return None;
    }
    // An element of an array of locks named by a global and fields, by a stable index: a
    // stripe lock.
    if let Some((Step::Index(_) | Step::Const(_), fields)) = path.steps.split_last() {
        let fields: Option<Vec<(StructId, u32)>> = fields
            .iter()
            .map(|s| match *s {
                Step::Field(s, i) => Some((s, i)),
                _ => None,
            })
            .collect();
        if let (Some(fields), None, VarKind::Global { .. }) =
            (fields, path.deref, p.vars[path.var].kind)
        {
            return Some(OwnLock {
                package: Package::Stripe(path.var, fields),
                object: path,
                mode,
            });
        }
    }
    let cut = path
        .steps
        .iter()
        .rposition(|s| matches!(s, Step::Index(_) | Step::Const(_)))
        .map_or(0, |i| i + 1);
    let lock: Vec<(StructId, u32)> = path.steps[cut..]
        .iter()
        .map(|s| match *s {
            Step::Field(s, i) => Some((s, i)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if lock.is_empty() && !(path.deref.is_some() && path.steps.is_empty()) {
        return None;
    }
    let object = Path {
        steps: path.steps[..cut].to_vec(),
        ..path
    };
    Some(OwnLock {
        object,
        package: Package::Lock(lock),
        mode,
    })
}

/// The own lock of the object holding the owning member `member` (an lvalue of it) that a
/// lock at field path `inner` of the member's block is ([`Package::Behind`]).
fn behind(
    p: &Program,
    f: FuncId,
    owning: &OwningPlaces,
    member: &Lval,
    inner: &[Proj],
    mode: LockMode,
) -> Option<OwnLock> {
    if !owning.owns(member) {
        return None;
    }
    let path = path_of(p, f, member)?;
    let cut = path
        .steps
        .iter()
        .rposition(|s| !matches!(s, Step::Field(..)))
        .map_or(0, |i| i + 1);
    let fields = |steps: &[Step]| -> Vec<(StructId, u32)> {
        steps
            .iter()
            .filter_map(|s| match *s {
                Step::Field(s, i) => Some((s, i)),
                _ => None,
            })
            .collect()
    };
    let outer = fields(&path.steps[cut..]);
    let inner: Vec<(StructId, u32)> = inner
        .iter()
        .map(|s| match *s {
            Proj::Field { strukt, index } => Some((strukt, index)),
            Proj::Index(_) | Proj::ConstIndex(_) => None,
        })
        .collect::<Option<_>>()?;
    if outer.is_empty() || path.steps[..cut].contains(&Step::AnyIndex) {
        return None;
    }
    Some(OwnLock {
        object: Path {
            steps: path.steps[..cut].to_vec(),
            ..path
        },
        package: Package::Behind(outer, inner),
        mode,
    })
}

/// What the analysis of every function reads about the whole program.
#[derive(Copy, Clone)]
pub(crate) struct Whole<'a> {
    pub(crate) owning: &'a OwningPlaces,
    /// The functions that may store a block into an owning member, directly or in what they
    /// call ([`member_storers`]).
    pub(crate) storers: &'a FxHashSet<FuncId>,
    /// The functions that never return ([`crate::analyses::never_returns`]): a path ends at
    /// their calls.
    pub(crate) never: &'a FxHashSet<FuncId>,
}

struct Analysis<'a> {
    p: &'a Program,
    f: FuncId,
    owning: &'a OwningPlaces,
    storers: &'a FxHashSet<FuncId>,
    releasers: &'a FxHashMap<FuncId, Releases>,
    params: std::cell::RefCell<Params<'a>>,
    /// What each lock wrapper leaves held (`program::left_held`).
    exits: &'a FxHashMap<FuncId, State>,
}

/// The own locks held, sorted.
pub type State = Vec<OwnLock>;

impl Analysis<'_> {
    /// `v` is assigned: the objects found through it are other objects now.
    fn assigned(state: &mut State, lv: &Lval) {
        if let (Base::Var(v), true) = (&lv.base, lv.proj.is_empty()) {
            state.retain(|h| !h.object.mentions(*v));
        }
    }

    /// `v = u` (possibly converted) for stable locals: the object `*u` is the object `*v` too.
    fn copied(&self, state: &mut State, dst: &Lval, src: &Operand) {
        let Lval {
            base: Base::Var(v),
            proj,
            ..
        } = dst
        else {
            return;
        };
        if !proj.is_empty() || !stable_local(self.p, self.f, *v) {
            return;
        }
        let op = src.without_casts();
        let Operand::Use(Lval {
            base: Base::Var(u),
            proj,
            ..
        }) = op
        else {
            return;
        };
        if !proj.is_empty() || u == v {
            return;
        }
        let ty = self.p.vars[*v].ty;
        let copies: Vec<OwnLock> = state
            .iter()
            .filter(|h| h.object.deref.is_some() && h.object.var == *u && h.object.steps.is_empty())
            // A lock's object keeps its type: another view of the memory may reach past it. A
            // thread's argument is a whole allocation of its own, whatever the view.
            .filter(|h| h.is_thread_owned() || h.object.deref == Some(ty))
            .map(|h| OwnLock {
                object: Path {
                    deref: Some(ty),
                    var: *v,
                    steps: Vec::new(),
                },
                ..h.clone()
            })
            .collect();
        for h in copies {
            if !state.contains(&h) {
                state.push(h);
            }
        }
        state.sort();
    }

    /// A call that may release `released`: every own lock it may release loses its place. A
    /// variable's own lock (`&g` or `&g.f`) can only be the lock of an object lying in that
    /// variable: one named through the variable, or reached through a pointer to a type the
    /// variable's memory contains.
    fn release(&self, state: &mut State, released: &Releases) {
        let Releases::Some(list) = released else {
            return Self::release_all(state);
        };
        let mut vars = Vec::new();
        for r in list {
            match *r {
                Released::Var(v) => vars.push(v),
                // A lock reached through one of this function's parameters: any object's.
                Released::Param(_) => return Self::release_all(state),
            }
        }
        let p = self.p;
        state.retain(|h| {
            matches!(
                h.package,
                Package::Thread | Package::Element | Package::Written
            ) || vars.iter().all(|&v| match h.object.deref {
                None => h.object.var != v,
                Some(ptr) => !p.types.pointee(ptr).is_some_and(|t| may_contain(p, v, t)),
            })
        });
    }

    /// Any lock may have been released: only the threads' ownership of their arguments and the
    /// written unpacks stay.
    fn release_all(state: &mut State) {
        state.retain(|h| {
            matches!(
                h.package,
                Package::Thread | Package::Element | Package::Written
            )
        });
    }

    /// The own locks a call of the lock wrapper `g` leaves held, named in this function: a
    /// parameter's object is the object of the argument passed for it, when that argument is a
    /// stable local of the parameter's type.
    fn wrapped(&self, g: FuncId, left: &State, args: &[Operand]) -> State {
        let params = &self.p.funcs[g].params;
        let mut out = Vec::new();
        for h in left {
            if h.object.deref.is_none() {
                out.push(h.clone());
                continue;
            }
            let Some(j) = params.iter().position(|&x| x == h.object.var) else {
                continue;
            };
            if h.package == Package::Lock(Vec::new()) {
                // A wrapper that takes the lock its parameter points to: the call acquires
                // the argument's lock.
                out.extend(
                    args.get(j)
                        .and_then(|a| own_lock(self.p, self.f, self.owning, a, h.mode)),
                );
                continue;
            }
            // A wrapper that takes the lock of the block its parameter points to, handed the
            // block an owning member holds (`hold(s->gate)`): the lock behind that member.
            if let (Package::Lock(fields), Some(Operand::Use(member)), true) = (
                &h.package,
                args.get(j).map(Operand::without_casts),
                h.object.steps.is_empty(),
            ) {
                let inner: Vec<Proj> = fields
                    .iter()
                    .map(|&(strukt, index)| Proj::Field { strukt, index })
                    .collect();
                if let Some(own) = behind(self.p, self.f, self.owning, member, &inner, h.mode) {
                    out.push(own);
                    continue;
                }
            }
            if let Some(Operand::Use(Lval {
                base: Base::Var(v),
                proj,
                ..
            })) = args.get(j)
            {
                if proj.is_empty()
                    && stable_local(self.p, self.f, *v)
                    && Some(self.p.vars[*v].ty) == h.object.deref
                {
                    out.push(OwnLock {
                        object: Path {
                            var: *v,
                            ..h.object.clone()
                        },
                        ..h.clone()
                    });
                }
            }
        }
        out
    }

    /// `LOCKSMITH_UNPACK(p)` opens the written unpack of `*p`; `LOCKSMITH_END_UNPACK(p)` ends
    /// it.
    fn annotation(&self, state: &mut State, g: FuncId, args: &[Operand]) {
        use crate::model::Intrinsic;
        let which = Intrinsic::from_name(&self.p.funcs[g].name);
        let Some((v, ty)) = args
            .first()
            .and_then(|a| annotated_pointer(self.p, self.f, a))
        else {
            return;
        };
        match which {
            Some(Intrinsic::Unpack) => {
                let h = OwnLock {
                    object: Path {
                        deref: Some(ty),
                        var: v,
                        steps: Vec::new(),
                    },
                    package: Package::Written,
                    mode: LockMode::Exclusive,
                };
                if !state.contains(&h) {
                    state.push(h);
                    state.sort();
                }
            }
            Some(Intrinsic::EndUnpack) => {
                state.retain(|h| !(h.package == Package::Written && h.object.var == v))
            }
            _ => {}
        }
    }

    /// A store into an owning member, or a call that may make one (through a pointer, or of
    /// a function that stores into one, [`member_storers`]): the block a member held may be
    /// another now, so no lock behind a member is held as its object's own any more.
    fn member_stored(&self, state: &mut State, kind: &StmtKind) {
        let stores = match kind {
            StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
                if self.owning.owns(dst) =>
            {
                true
            }
            StmtKind::Call { callee, .. } => match callee {
                Callee::Direct(g) => self.storers.contains(g),
                Callee::Indirect(_) => true,
            },
            StmtKind::Asm { .. } => true,
            _ => false,
        };
        if stores {
            state.retain(|h| !matches!(h.package, Package::Behind(..)));
        }
    }

    fn step(&self, state: &mut State, kind: &StmtKind) {
        self.member_stored(state, kind);
        match kind {
            StmtKind::Assign { dst, src } => {
                Self::assigned(state, dst);
                self.copied(state, dst, src);
            }
            StmtKind::Eval(_) => {}
            StmtKind::Asm { .. } => state.clear(),
            StmtKind::Call { dst, callee, args } => {
                let kind = match callee {
                    Callee::Direct(g) => self.p.known_kind(*g),
                    Callee::Indirect(_) => None,
                };
                let released =
                    self.params
                        .borrow_mut()
                        .at_call(self.f, self.releasers, callee, args);
                if let Some(released) = released {
                    self.release(state, &released);
                }
                if let Some(d) = dst {
                    Self::assigned(state, d);
                }
                if let Callee::Direct(g) = callee {
                    self.annotation(state, *g, args);
                }
                let mut taken: State = Vec::new();
                if let Some(Kind::Acquire { lock, mode, .. }) = kind {
                    let held = args
                        .get(lock as usize)
                        .and_then(|a| own_lock(self.p, self.f, self.owning, a, mode));
                    taken.extend(held);
                }
                if let Callee::Direct(g) = callee {
                    if let Some(left) = self.exits.get(g) {
                        taken.extend(self.wrapped(*g, left, args));
                    }
                }
                for h in taken {
                    if !state.contains(&h) {
                        state.push(h);
                    }
                }
                state.sort();
            }
        }
    }
}

/// The functions that may store a block into an owning member: those that store into one,
/// their callers, and the callers of what may call one back
/// ([`Calls::may_write`]); calls through pointers are asked at
/// the call ([`Analysis::member_stored`]).
pub(crate) fn member_storers(
    p: &Program,
    calls: &Calls,
    owning: &OwningPlaces,
) -> FxHashSet<FuncId> {
    let stores = |func: &crate::ir::Func| {
        func.blocks.iter().flat_map(|b| &b.stmts).any(|stmt| {
            matches!(&stmt.kind, StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
                if owning.owns(dst))
        })
    };
    let writers: FxHashSet<FuncId> = (p.funcs.iter_enumerated())
        .filter(|(_, func)| stores(func))
        .map(|(f, _)| f)
        .collect();
    if writers.is_empty() {
        return writers;
    }
    calls.may_write(&writers)
}

/// Runs the analysis on one function (`releasers` from [`releasers`]), from the own locks
/// `entry` held when it is called, with the lock wrappers' summaries `exits`.
fn analyse(
    p: &Program,
    f: FuncId,
    whole: Whole<'_>,
    releasers: &FxHashMap<FuncId, Releases>,
    exits: &FxHashMap<FuncId, State>,
    entry: State,
) -> Unpacks {
    let func = &p.funcs[f];
    let a = Analysis {
        p,
        f,
        owning: whole.owning,
        storers: whole.storers,
        releasers,
        params: std::cell::RefCell::new(Params::new(p)),
        exits,
    };
    let n = func.blocks.len();
    let mut out = Unpacks::default();
    // Nothing to find in a function that acquires no lock of its own and holds none at entry.
    let acquires = func.blocks.iter().flat_map(|b| &b.stmts).any(|s| {
        matches!(&s.kind, StmtKind::Call { callee: Callee::Direct(g), .. }
            if matches!(p.known_kind(*g), Some(Kind::Acquire { .. }))
                || exits.contains_key(g)
                || crate::model::Intrinsic::from_name(&p.funcs[*g].name)
                    == Some(crate::model::Intrinsic::Unpack))
    });
    if n == 0 || (!acquires && entry.is_empty()) {
        return out;
    }
    // `None` when the block calls a function that never returns: no path leaves it.
    let transfer = |b: usize, mut state: State, record: Option<&mut Unpacks>| -> Option<State> {
        let block = &func.blocks[BlockId(b as u32)];
        let mut record = record;
        for (k, stmt) in block.stmts.iter().enumerate() {
            if let Some(r) = record.as_deref_mut() {
                if !state.is_empty() {
                    r.before.insert((BlockId(b as u32), k), state.clone());
                }
            }
            a.step(&mut state, &stmt.kind);
            if crate::analyses::never_returns::ends_path(&stmt.kind, whole.never) {
                return None;
            }
        }
        if let Some(r) = record {
            if !state.is_empty() {
                r.at_term.insert(BlockId(b as u32), state.clone());
            }
        }
        Some(state)
    };
    let succs: Vec<Vec<u32>> = func
        .blocks
        .iter()
        .map(|block| match block.term {
            Term::Exit => Vec::new(),
            ref t => t.successors().iter().map(|t| t.0).collect(),
        })
        .collect();
    // A must analysis: a block no path reaches yet is ⊤, and merging intersects.
    let entry = dataflow::forward(
        &mut (),
        n,
        |b| &succs[b],
        entry,
        |_, b, state| transfer(b, state, None),
        |_, into: &mut State, incoming: &State| {
            let before = into.len();
            into.retain(|h| incoming.contains(h));
            into.len() != before
        },
    );
    for (b, input) in entry.into_iter().enumerate() {
        if let Some(input) = input {
            transfer(b, input, Some(&mut out));
        }
    }
    out
}
