//! Slots by a field of the thread's element: `main` (or a function that runs once,
//! [`crate::analyses::once`]) hands each thread of a counted loop its own
//! element of an array of structs after storing the loop's counter in one of its fields, and the
//! thread indexes global arrays by that field's value (`Package::Slot`, an inferred unpack, paper
//! §3.3 figure 10's [Unpack] taken further as in [`super`]; as for a counter handed
//! over as the argument itself):
//!
//! ```c
//! for (i = 0; i < N; i++) {
//!     td[i].id = i;                            // the one store of the field in the program
//!     pthread_create(&t[i], 0, work, &td[i]);
//! }
//! void *work(void *arg) {
//!     struct data *my = arg;
//!     int id = my->id;                         // assigned once
//!     partial[id] = …;                         // no other thread has this id
//! }
//! ```
//!
//! Why that is sound: the create is an element hand-off (`JoinPlan::element_handoffs`) in
//! `main` or another function that runs once, so each thread gets a different element, whose
//! field that function set to
//! a different value of the counter before the create. Nothing else can change the field: no
//! other statement of the program stores into it, none stores a whole struct of its type, the
//! type is a struct (no union member overlaps the field) that lies in no other struct, union or
//! array of structs, the field's address is never taken, and no pointer to the struct is
//! converted to another type or handed to code locksmith cannot see (but the create's own
//! argument, and `free`), so no library call, pointer or type pun writes it. Each thread thus
//! reads the value it was given.
//!
//! The same holds for a pointer field of the fresh object a thread owns ([`pointee_slots`]):
//! `a = malloc(…); a->out = &outs[i]; pthread_create(…, a)` in a clean counted loop over `i` of
//! a function that runs once, and the thread writes `*my->out`: each thread's field points to a different
//! element of `outs`, so the threads' accesses through it touch different elements.
//!
//! This module reads the IR and the join plan only.

use rustc_hash::FxHashMap;

use super::{stable_local, OwnLock, Package, Path, Step};
use crate::analyses::joins::{JoinPlan, StmtAt};
use crate::ir::ctypes::{StructId, StructKind, Type, TypeId};
use crate::ir::visit::{walk_operand, walk_stmt, walk_term, Visitor};
use crate::ir::{Base, Callee, FuncId, Lval, Operand, Program, Proj, StmtKind, VarId};

/// The field `(struct, index)` of the elements a create hands over that holds the loop's
/// counter: the store of it before the create, in the create's block.
fn counter_field(p: &Program, create: StmtAt, plan: &JoinPlan) -> Option<(StructId, u32, usize)> {
    let &(array, counter) = plan.element_handoffs.get(&create)?;
    let (f, b, k) = create;
    let stmts = &p.funcs[f].blocks[b].stmts;
    stmts[..k].iter().enumerate().find_map(|(at, stmt)| {
        let StmtKind::Assign { dst, src } = &stmt.kind else {
            return None;
        };
        let is_counter = matches!(src.without_casts(), Operand::Use(Lval { base: Base::Var(v), proj, .. })
            if *v == counter && proj.is_empty());
        match (&dst.base, dst.proj.as_slice()) {
            (Base::Var(a), [Proj::Index(Some(i)), Proj::Field { strukt, index }])
                if *a == array && *i == counter && is_counter =>
            {
                Some((*strukt, *index, at))
            }
            _ => None,
        }
    })
}

/// A routine's assignments of whole local variables, `d = src` (the source through casts).
type Assigns<'p> = Vec<(VarId, &'p Operand)>;

/// The local variable assignments of routine `g`, `d = src` (through casts), and its first
/// parameter with the locals assigned from it (`my = arg`), when the parameter is a stable local
/// never assigned.
pub(super) fn param_copies(p: &Program, g: FuncId) -> Option<(Assigns<'_>, VarId, Vec<VarId>)> {
    let func = &p.funcs[g];
    let &param = func.params.first()?;
    if !stable_local(p, g, param) || !super::program::assigned_in(p, g, param).is_empty() {
        return None;
    }
    let assigns: Assigns<'_> = func
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { dst, src } if dst.proj.is_empty() => match dst.base {
                Base::Var(d) => Some((d, src.without_casts())),
                Base::Deref(_) => None,
            },
            _ => None,
        })
        .collect();
    let copies = assigns
        .iter()
        .filter(|(_, src)| names(src, param))
        .map(|&(d, _)| d)
        .collect();
    Some((assigns, param, copies))
}

/// Whether an operand is the variable `v` itself.
pub(super) fn names(op: &Operand, v: VarId) -> bool {
    matches!(op, Operand::Use(Lval { base: Base::Var(x), proj, .. }) if *x == v && proj.is_empty())
}

/// Whether `v` of routine `g` is a stable local assigned once.
pub(super) fn assigned_once(p: &Program, g: FuncId, v: VarId) -> bool {
    stable_local(p, g, v) && super::program::assigned_in(p, g, v).len() == 1
}

/// The locals of routine `g` assigned once, from the field `(strukt, index)` of the object its
/// first parameter points to (directly, or through a local assigned once from it): a local the
/// program names (`id = my->id`), or the temporary of an index `partial[my->id]`.
fn field_locals(p: &Program, g: FuncId, strukt: StructId, index: u32) -> Vec<VarId> {
    let Some((assigns, param, copies)) = param_copies(p, g) else {
        return Vec::new();
    };
    let aliases: Vec<VarId> = std::iter::once(param)
        .chain(copies.into_iter().filter(|&d| assigned_once(p, g, d)))
        .collect();
    assigns
        .into_iter()
        .filter(|&(d, _)| assigned_once(p, g, d))
        .filter_map(|(d, src)| match src {
            Operand::Use(Lval {
                base: Base::Deref(ptr),
                proj,
                ..
            }) if proj.as_slice() == [Proj::Field { strukt, index }]
                && aliases.iter().any(|&a| names(ptr.without_casts(), a)) =>
            {
                Some(d)
            }
            _ => None,
        })
        .collect()
}

/// Whether nothing in the program but the statement `store` can write the field `(strukt,
/// index)` (see the module doc), `create` being the one create that may hand a pointer to the
/// struct to a library function.
pub(super) fn field_kept(
    p: &Program,
    strukt: StructId,
    index: u32,
    store: StmtAt,
    create: StmtAt,
) -> bool {
    // The members of a union overlap the field.
    if p.types.structs[strukt].kind != StructKind::Struct {
        return false;
    }
    let struct_ty = |t: TypeId| matches!(p.types.get(t), Type::Struct(s) if *s == strukt);
    let pointer_to = |t: TypeId| matches!(p.types.get(t), Type::Pointer(e) if struct_ty(*e));
    let names_field = |lv: &Lval| {
        lv.proj.iter().any(
            |s| matches!(s, Proj::Field { strukt: t, index: i } if *t == strukt && *i == index),
        )
    };
    // Inside another aggregate, the struct could be written whole with it.
    let nested = p.types.structs.iter().any(|d| {
        d.fields.iter().any(|fl| {
            let mut t = fl.ty;
            while let Type::Array(e) = p.types.get(t) {
                t = *e;
            }
            struct_ty(t)
        })
    });
    if nested {
        return false;
    }
    /// Finds a pointer to the struct converted to another type, or the field's address.
    struct Converts<'a, F: Fn(TypeId) -> bool, G: Fn(&Lval) -> bool> {
        p: &'a Program,
        pointer_to: F,
        names_field: G,
        found: bool,
    }
    impl<F: Fn(TypeId) -> bool, G: Fn(&Lval) -> bool> Visitor for Converts<'_, F, G> {
        fn visit_operand(&mut self, op: &Operand) {
            match op {
                Operand::Cast(ty, inner)
                    if !(self.pointer_to)(*ty) && (self.pointer_to)(self.p.operand_type(inner)) =>
                {
                    self.found = true;
                }
                Operand::AddrOf(lv) if (self.names_field)(lv) => self.found = true,
                _ => {}
            }
            walk_operand(self, op);
        }
    }
    let writes_field = |lv: &Lval| names_field(lv) || struct_ty(p.lval_type(lv));
    let mut converts = Converts {
        p,
        pointer_to,
        names_field,
        found: false,
    };
    for (f, func) in p.funcs.iter_enumerated() {
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let at = (f, b, k);
                let dsts: Vec<&Lval> = match &stmt.kind {
                    StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                        vec![dst]
                    }
                    StmtKind::Asm { operands } => operands.iter().collect(),
                    _ => Vec::new(),
                };
                if at != store && dsts.into_iter().any(writes_field) {
                    return false;
                }
                if at == create {
                    continue;
                }
                if let StmtKind::Call {
                    callee: Callee::Direct(g),
                    args,
                    ..
                } = &stmt.kind
                {
                    // `free` ends the object: a read after it is undefined, and a free by
                    // another thread races with the owner's reads.
                    let frees = matches!(p.known_kind(*g), Some(crate::model::Kind::Free { .. }));
                    let library = !frees
                        && (p.funcs[*g].blocks.is_empty()
                            || p.funcs[*g].origin != crate::ir::Origin::User);
                    if library && args.iter().any(|a| pointer_to(p.operand_type(a))) {
                        return false;
                    }
                }
                walk_stmt(&mut converts, &stmt.kind);
            }
            walk_term(&mut converts, &block.term);
        }
    }
    !converts.found
}

/// The slot routines by a field of their element ([`Package::Slot`](super::Package::Slot)),
/// among the routines `candidates` started by one create each: by routine, its slot.
pub(super) fn field_slots(
    p: &Program,
    plan: &JoinPlan,
    candidates: &[(FuncId, StmtAt)],
) -> FxHashMap<FuncId, Vec<OwnLock>> {
    let mut out = FxHashMap::default();
    for &(g, create) in candidates {
        let Some((strukt, index, at)) = counter_field(p, create, plan) else {
            continue;
        };
        let ids = field_locals(p, g, strukt, index);
        if ids.is_empty() {
            continue;
        }
        let store = (create.0, create.1, at);
        if field_kept(p, strukt, index, store, create) {
            let slots = ids
                .into_iter()
                .map(|id| super::program::value_slot(create, id));
            out.insert(g, slots.collect());
        }
    }
    out
}

/// The field `(struct, index)` of the fresh object `handed` (a local pointer) that the store
/// before the create, in its block, points to the element of an array at the create loop's
/// counter (`a->out = &outs[i]`), with `handed` not assigned between the store and the create.
fn pointer_field(
    p: &Program,
    create: StmtAt,
    handed: VarId,
    plan: &JoinPlan,
) -> Option<(StructId, u32, usize)> {
    let &counter = plan.create_counters.get(&create)?;
    let (f, b, k) = create;
    let stmts = &p.funcs[f].blocks[b].stmts;
    let (at, strukt, index) = stmts[..k].iter().enumerate().find_map(|(at, stmt)| {
        let StmtKind::Assign { dst, src } = &stmt.kind else {
            return None;
        };
        let element = matches!(src.without_casts(), Operand::AddrOf(Lval { base: Base::Var(x), proj, .. })
            if matches!(p.types.get(p.vars[*x].ty), Type::Array(_))
                && proj.as_slice() == [Proj::Index(Some(counter))]);
        let through_handed = matches!(&dst.base, Base::Deref(op)
            if matches!(op.without_casts(), Operand::Use(Lval { base: Base::Var(v), proj, .. })
                if *v == handed && proj.is_empty()));
        match dst.proj.as_slice() {
            [Proj::Field { strukt, index }] if element && through_handed => {
                Some((at, *strukt, *index))
            }
            _ => None,
        }
    })?;
    let reassigned = stmts[at + 1..k].iter().any(|s| {
        matches!(&s.kind, StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
            if matches!(dst.base, Base::Var(v) if v == handed || v == counter))
    });
    (!reassigned).then_some((strukt, index, at))
}

/// The local of routine `g` through which it reads its argument: the first parameter when it
/// points to the struct, or a stable local assigned once from it.
fn argument_alias(p: &Program, g: FuncId, strukt: StructId) -> Option<VarId> {
    let (_, param, copies) = param_copies(p, g)?;
    let points_to_struct = |v: VarId| matches!(p.types.get(p.vars[v].ty), Type::Pointer(e) if matches!(p.types.get(*e), Type::Struct(s) if *s == strukt));
    if points_to_struct(param) {
        return Some(param);
    }
    let [alias] = copies[..] else {
        return None;
    };
    (assigned_once(p, g, alias) && points_to_struct(alias)).then_some(alias)
}

/// The slot routines by a pointer field of their fresh argument: their creator (which runs
/// once) allocates each
/// thread's argument, points its field at the element of an array at the create loop's
/// counter (`a->out = &outs[i]`), and nothing else can write that field (as for
/// [`field_slots`]); then the threads' accesses through `my->out` touch different elements
/// ([`super::Step::FieldPointee`]). Among `candidates`, routines that own their fresh argument
/// and are started by one create each: by routine, its slot.
pub(super) fn pointee_slots(
    p: &Program,
    plan: &JoinPlan,
    candidates: &[(FuncId, StmtAt)],
) -> FxHashMap<FuncId, OwnLock> {
    let mut out = FxHashMap::default();
    for &(g, create) in candidates {
        let (f, b, k) = create;
        let StmtKind::Call {
            callee: Callee::Direct(c),
            args,
            ..
        } = &p.funcs[f].blocks[b].stmts[k].kind
        else {
            continue;
        };
        let Some(crate::model::Kind::Fork { arg: Some(arg), .. }) = p.known_kind(*c) else {
            continue;
        };
        let Some(handed) = args
            .get(usize::from(arg))
            .and_then(|a| crate::analyses::uniqueness::base_var(p, a))
        else {
            continue;
        };
        let Some((strukt, index, at)) = pointer_field(p, create, handed, plan) else {
            continue;
        };
        let Some(alias) = argument_alias(p, g, strukt) else {
            continue;
        };
        if !field_kept(p, strukt, index, (f, b, at), create) {
            continue;
        }
        out.insert(
            g,
            OwnLock {
                object: Path {
                    deref: Some(p.vars[alias].ty),
                    var: alias,
                    steps: vec![Step::FieldPointee(strukt, index)],
                },
                package: Package::Slot(f, b, k),
                mode: crate::model::LockMode::Exclusive,
            },
        );
    }
    out
}
