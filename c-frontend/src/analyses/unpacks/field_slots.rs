//! Slots by a field of the thread's element: `main` hands each thread of a counted loop its own
//! element of an array of structs after storing the loop's counter in one of its fields, and the
//! thread indexes global arrays by that field's value (`Package::Slot`, as for a counter handed
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
//! `main`, which runs once, so each thread gets a different element, whose field `main` set to
//! a different value of the counter before the create. Nothing else can change the field: no
//! other statement of the program stores into it, none stores a whole struct of its type, the
//! type is a struct (no union member overlaps the field) that lies in no other struct, union or
//! array of structs, the field's address is never taken, and no pointer to the struct is
//! converted to another type or handed to code locksmith cannot see (but the create's own
//! argument), so no library call, pointer or type pun writes it. Each thread thus reads the
//! value it was given.
//!
//! This module reads the IR and the join plan only.

use rustc_hash::FxHashMap;

use super::stable_local;
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

/// The local of routine `g` assigned once, from the field `(strukt, index)` of the object its
/// first parameter points to (directly, or through a local assigned once from it).
fn field_local(p: &Program, g: FuncId, strukt: StructId, index: u32) -> Option<VarId> {
    let func = &p.funcs[g];
    let &param = func.params.first()?;
    let once = |v: VarId| stable_local(p, g, v) && super::program::assigned_in(p, g, v).len() == 1;
    if !stable_local(p, g, param) || !super::program::assigned_in(p, g, param).is_empty() {
        return None;
    }
    let assigns = func
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { dst, src } if dst.proj.is_empty() => match dst.base {
                Base::Var(d) => Some((d, src.without_casts())),
                Base::Deref(_) => None,
            },
            _ => None,
        });
    let named = |op: &Operand, v: VarId| matches!(op, Operand::Use(Lval { base: Base::Var(x), proj, .. }) if *x == v && proj.is_empty());
    let aliases: Vec<VarId> = std::iter::once(param)
        .chain(
            assigns
                .clone()
                .filter(|(d, src)| named(src, param) && once(*d))
                .map(|(d, _)| d),
        )
        .collect();
    assigns
        .filter(|(d, _)| once(*d))
        .find_map(|(d, src)| match src {
            Operand::Use(Lval {
                base: Base::Deref(ptr),
                proj,
                ..
            }) if proj.as_slice() == [Proj::Field { strukt, index }]
                && aliases.iter().any(|&a| named(ptr.without_casts(), a)) =>
            {
                Some(d)
            }
            _ => None,
        })
}

/// Whether nothing in the program but the statement `store` can write the field `(strukt,
/// index)` (see the module doc), `create` being the one create that may hand a pointer to the
/// struct to a library function.
fn field_kept(p: &Program, strukt: StructId, index: u32, store: StmtAt, create: StmtAt) -> bool {
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
                    let library = p.funcs[*g].blocks.is_empty()
                        || p.funcs[*g].origin != crate::ir::Origin::User;
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
/// among the routines `candidates` started by one create each: by routine, its create and the
/// local holding the field's value.
pub(super) fn field_slots(
    p: &Program,
    plan: &JoinPlan,
    candidates: &[(FuncId, StmtAt)],
) -> FxHashMap<FuncId, (StmtAt, VarId)> {
    let mut out = FxHashMap::default();
    for &(g, create) in candidates {
        let Some((strukt, index, at)) = counter_field(p, create, plan) else {
            continue;
        };
        let Some(id) = field_local(p, g, strukt, index) else {
            continue;
        };
        let store = (create.0, create.1, at);
        if field_kept(p, strukt, index, store, create) {
            out.insert(g, (create, id));
        }
    }
    out
}
