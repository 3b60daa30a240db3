//! How a thread id is named (a variable's field path and index, or an element of a heap block)
//! and everything in the program that may change one: which ids a join can trust.

use rustc_hash::{FxHashMap, FxHashSet};

use super::*;
use crate::ir::visit::{walk_operand, Visitor};

/// Where the memory holding a thread id is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum IdBase {
    /// A variable.
    Var(VarId),
    /// The heap block a local pointer variable points to (its elements `w[i]`).
    Heap(VarId),
    /// The object a global place holding a handle points to (`writer`, `g.loader`): the
    /// place's field path comes first in [`IdPath::fields`], then [`HANDLE_OBJECT`], then the
    /// thread id's field path in the object.
    GlobalHandle(VarId),
}

/// How a thread id is named: a variable, its field path, and for arrays the index variable; or
/// an element of the heap block a pointer points to (then the index is always there), with the
/// field path inside the element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct IdPath {
    pub(super) base: IdBase,
    pub(super) fields: Vec<(u32, u32)>,
    pub(super) index: Option<VarId>,
    /// The fields after the index: the id in a member of each element (`w[i].tid`).
    pub(super) after: Vec<(u32, u32)>,
}

impl IdPath {
    /// The variable of a path rooted at a variable.
    pub(super) fn var(&self) -> Option<VarId> {
        match self.base {
            IdBase::Var(v) => Some(v),
            IdBase::Heap(_) | IdBase::GlobalHandle(_) => None,
        }
    }
}

/// One step of an lvalue's path from its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Step {
    Field(u32, u32),
    Index,
    /// An index by this constant: only the same constant, or an index not known, is the same
    /// element.
    Const(u32),
}

/// An lvalue rooted at a variable, as a path of steps.
pub(super) type Place = (VarId, Vec<Step>);

/// What a statement does to memory that may hold a thread id: the places whose address it takes
/// (except the thread id of a `pthread_create`, reported separately), the places it assigns, the
/// struct fields it assigns through a pointer, and the structs it assigns whole through one.
#[derive(Default)]
pub(super) struct Touched {
    pub(super) addr: Vec<Place>,
    pub(super) created: Option<Place>,
    pub(super) written: Vec<Place>,
    pub(super) fields_through_pointers: Vec<(u32, u32)>,
    /// The field of a thread id a create writes through a pointer (`&th->id`).
    pub(super) created_through_pointer: Option<(u32, u32)>,
    /// Fields whose address is taken through a pointer (`&th->id`), except as the thread id of a
    /// create.
    pub(super) fields_addressed_through_pointers: Vec<(u32, u32)>,
    pub(super) structs_through_pointers: Vec<u32>,
    /// Structs a library function (which may write through its arguments: `memset`, `memcpy`, or
    /// one without a model) receives a pointer to, with the local or parameter the pointer is
    /// read from when it is one, plain.
    pub(super) structs_to_library: Vec<(u32, Option<VarId>)>,
}

/// Everything in the program that may change a thread id, to decide which ids a join can trust.
#[derive(Default)]
pub(super) struct Writers {
    /// How many creates hand over each place, by the place's variable (a join's id is compared
    /// with the creates of its own variable only).
    pub(super) creates: FxHashMap<VarId, FxHashMap<Vec<Step>, usize>>,
    pub(super) written: FxHashMap<VarId, Vec<Vec<Step>>>,
    pub(super) addr: FxHashMap<VarId, Vec<Vec<Step>>>,
    pub(super) fields_through_pointers: FxHashSet<(u32, u32)>,
    /// How many creates write a thread id into each field through a pointer.
    pub(super) created_through_pointers: FxHashMap<(u32, u32), usize>,
    pub(super) fields_addressed_through_pointers: FxHashSet<(u32, u32)>,
    pub(super) structs_through_pointers: FxHashSet<u32>,
    /// The structs a library function may write through a pointer to one, but for calls given a
    /// fresh object before anything is stored in it (`FreshObjects`, `memset(t, 0, …)` after
    /// `t = malloc(…)`).
    pub(super) structs_to_library: FxHashSet<u32>,
    /// Structs that are unions: their members overlap, so a path through one is never trusted.
    pub(super) unions: FxHashSet<u32>,
}

impl Writers {
    /// Whether the thread id at `path` can only hold the thread of its one create: no other
    /// create or assignment overlaps it, its address (or an address inside it) is not taken, and
    /// if the address of an enclosing struct is taken, no code writes that field or one of those
    /// structs through a pointer.
    pub(super) fn trustworthy(&self, path: &IdPath) -> bool {
        let Some(var) = path.var() else {
            return false;
        };
        let steps: Vec<Step> = path
            .fields
            .iter()
            .map(|&(s, i)| {
                if s == CONST_ELEMENT {
                    Step::Const(i)
                } else {
                    Step::Field(s, i)
                }
            })
            .chain(path.index.map(|_| Step::Index))
            .chain(path.after.iter().map(|&(s, i)| Step::Field(s, i)))
            .collect();
        let creates = self.creates.get(&var);
        if creates.and_then(|c| c.get(&steps)) != Some(&1) {
            return false;
        }
        if creates
            .into_iter()
            .flatten()
            .any(|(other, _)| *other != steps && overlaps(other, &steps))
        {
            return false;
        }
        if self
            .written
            .get(&var)
            .is_some_and(|w| w.iter().any(|w| overlaps(w, &steps)))
        {
            return false;
        }
        let fields: Vec<(u32, u32)> = path.fields.iter().chain(&path.after).copied().collect();
        self.unaliased(var, &steps, &fields)
    }

    /// Whether the place `steps` of variable `var` (through the members `fields`) can be
    /// written only by naming the variable: its address, or
    /// an address inside it, is never taken, no union is on the way, and if the address of an
    /// enclosing struct is taken, no code writes the field or one of those structs through a
    /// pointer or hands one to a library function.
    pub(super) fn unaliased(&self, var: VarId, steps: &[Step], fields: &[(u32, u32)]) -> bool {
        let mut enclosing_escapes = false;
        for a in self.addr.get(&var).map(Vec::as_slice).unwrap_or(&[]) {
            if a.len() >= steps.len() {
                if overlaps(a, steps) {
                    return false;
                }
            } else if overlaps(a, steps) {
                enclosing_escapes = true;
            }
        }
        if fields.iter().any(|(s, _)| self.unions.contains(s)) {
            return false;
        }
        if enclosing_escapes {
            if fields
                .iter()
                .any(|(s, _)| self.structs_to_library.contains(s))
            {
                return false;
            }
            // Through a pointer to the struct (or to an element of an array of them, handed
            // to its thread), the field may be written, created into, or have its address
            // taken, or the struct written whole: any of these anywhere rejects the id. An
            // element with no member after its index (`t[i]`, `t[1]`) is written through a
            // pointer with no field to tell it by: rejected.
            let field_written = fields.last().is_some_and(|f| {
                self.fields_through_pointers.contains(f)
                    || self.fields_addressed_through_pointers.contains(f)
                    || self.created_through_pointers.contains_key(f)
            });
            let struct_written = fields
                .iter()
                .any(|(s, _)| self.structs_through_pointers.contains(s));
            let ends_indexed = matches!(steps.last(), Some(Step::Index | Step::Const(_)));
            if field_written || struct_written || ends_indexed {
                return false;
            }
        }
        true
    }

    /// Whether the thread id at field path `fields` of a fresh object that a handle create
    /// wrapper returns can only hold the thread of that wrapper's one create: the object may be
    /// kept anywhere (in a list of all threads), so nothing in the whole program may write the
    /// field or a struct enclosing it but that one create — no assignment through a pointer,
    /// no other create, no address of the field taken, no enclosing struct handed to a library
    /// function that may write it (`free` does not count), and no union on the way.
    pub(super) fn handle_trusted(&self, fields: &[(u32, u32)]) -> bool {
        let Some(last) = fields.last() else {
            return false;
        };
        self.created_through_pointers.get(last) == Some(&1)
            && !self.fields_through_pointers.contains(last)
            && !self.fields_addressed_through_pointers.contains(last)
            && fields.iter().all(|(s, _)| {
                !self.unions.contains(s)
                    && !self.structs_through_pointers.contains(s)
                    && !self.structs_to_library.contains(s)
            })
    }
}

/// The "struct" separating a global handle place's fields from the thread id's fields in the
/// object ([`IdBase::GlobalHandle`]).
pub(super) const HANDLE_OBJECT: u32 = u32::MAX - 1;

/// The "struct" of a constant index's step in [`IdPath::fields`]: no struct has this id, so no
/// write of a field through a pointer is taken for it.
pub(super) const CONST_ELEMENT: u32 = u32::MAX;

pub(super) fn id_path(lv: &Lval) -> Option<IdPath> {
    let Base::Var(var) = lv.base else { return None };
    let mut fields = Vec::new();
    let mut index = None;
    let mut after = Vec::new();
    for p in &lv.proj {
        match *p {
            Proj::Field { strukt, index: i } if index.is_some() => after.push((strukt.0, i)),
            Proj::Field { strukt, index: i } => fields.push((strukt.0, i)),
            Proj::Index(Some(v)) if index.is_none() => index = Some(v),
            // A constant index names one element, as a field names one member.
            Proj::ConstIndex(k) if index.is_none() => {
                fields.push((CONST_ELEMENT, u32::try_from(k).ok()?));
            }
            Proj::Index(_) | Proj::ConstIndex(_) => return None,
        }
    }
    Some(IdPath {
        base: IdBase::Var(var),
        fields,
        index,
        after,
    })
}

/// `w + i` (or `i + w`): the element `i` of what the local pointer `w` points to, where `w` is
/// read directly (a cast of `w` could change the element size, which the IR's types do not
/// keep) and `i` is an integer variable (casts of it are looked through, as for array indexes).
pub(super) fn heap_element(p: &Program, op: &Operand) -> Option<(VarId, VarId)> {
    let Operand::Arith(t, _, ops) = op else {
        return None;
    };
    let [a, b] = ops.as_slice() else { return None };
    let plain = |op: &Operand| match op {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() => Some(*v),
        _ => None,
    };
    let is_pointer = |v: VarId| matches!(p.types.get(p.vars[v].ty), Type::Pointer(_));
    let is_int = |v: VarId| matches!(p.types.get(p.vars[v].ty), Type::Int);
    [(a, b), (b, a)].into_iter().find_map(|(w, i)| {
        let w = plain(w)?;
        let i = plain(i.without_casts())?;
        (w != i && is_pointer(w) && is_int(i) && p.vars[w].ty == *t).then_some((w, i))
    })
}

/// The `(struct, member)` steps of an lvalue's projection, when it has no index.
pub(super) fn field_path(lv: &Lval) -> Option<Vec<(u32, u32)>> {
    lv.proj
        .iter()
        .map(|p| match *p {
            Proj::Field { strukt, index } => Some((strukt.0, index)),
            Proj::Index(_) | Proj::ConstIndex(_) => None,
        })
        .collect()
}

/// A thread id in a heap block: `*(w + i)` with a field path (`w[i]`, `w[i].tid`), or in the one
/// object a local pointer points to, `*w` with a field path (`w->tid`), which has no index.
pub(super) fn heap_path(p: &Program, lv: &Lval) -> Option<IdPath> {
    let Base::Deref(ptr) = &lv.base else {
        return None;
    };
    let fields = field_path(lv)?;
    let (w, index) = match &**ptr {
        Operand::Use(Lval {
            base: Base::Var(w),
            proj,
            ..
        }) => {
            let is_pointer = matches!(p.types.get(p.vars[*w].ty), Type::Pointer(_));
            (proj.is_empty() && is_pointer).then_some((*w, None))?
        }
        other => {
            let (w, i) = heap_element(p, other.without_casts())?;
            (w, Some(i))
        }
    };
    Some(IdPath {
        base: IdBase::Heap(w),
        fields,
        index,
        after: Vec::new(),
    })
}

/// The thread id named by the first argument of a create (its address) or of a join (its
/// value).
pub(super) fn site_path(p: &Program, is_create: bool, arg: &Operand) -> Option<IdPath> {
    match (is_create, arg.without_casts()) {
        (true, Operand::AddrOf(lv)) | (false, Operand::Use(lv)) => {
            id_path(lv).or_else(|| heap_path(p, lv))
        }
        (true, ptr @ Operand::Arith(..)) => {
            let (w, i) = heap_element(p, ptr)?;
            Some(IdPath {
                base: IdBase::Heap(w),
                fields: Vec::new(),
                index: Some(i),
                after: Vec::new(),
            })
        }
        _ => None,
    }
}

pub(super) fn place_of(lv: &Lval) -> Option<Place> {
    let Base::Var(v) = lv.base else { return None };
    let steps = lv
        .proj
        .iter()
        .map(|p| match *p {
            Proj::Field { strukt, index } => Step::Field(strukt.0, index),
            Proj::Index(_) => Step::Index,
            Proj::ConstIndex(k) => u32::try_from(k).map_or(Step::Index, Step::Const),
        })
        .collect();
    Some((v, steps))
}

/// Whether one path is a prefix of the other (the places overlap).
pub(super) fn overlaps(a: &[Step], b: &[Step]) -> bool {
    a.iter().zip(b).all(|(x, y)| match (x, y) {
        (Step::Index, Step::Index | Step::Const(_)) | (Step::Const(_), Step::Index) => true,
        _ => x == y,
    })
}

/// The places whose address an operand takes (the [`Touched::addr`] half of a statement).
impl Visitor for Touched {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::AddrOf(lv) = op {
            match place_of(lv) {
                Some(pl) => self.addr.push(pl),
                None => {
                    if let Some(Proj::Field { strukt, index }) = lv.proj.last() {
                        self.fields_addressed_through_pointers
                            .push((strukt.0, *index));
                    }
                }
            }
        }
        walk_operand(self, op);
    }
}

/// What statement `kind` does to memory that may hold a thread id.
pub(super) fn touched(p: &Program, kind: &StmtKind, calls: &ThreadCalls) -> Touched {
    let dst_walk = |lv: &Lval, t: &mut Touched| {
        match place_of(lv) {
            Some(pl) => t.written.push(pl),
            None => {
                if let Some(Proj::Field { strukt, index }) = lv.proj.last() {
                    t.fields_through_pointers.push((strukt.0, *index));
                }
                if let Type::Struct(sid) = p.types.get(p.lval_type(lv)) {
                    t.structs_through_pointers.push(sid.0);
                }
            }
        }
        t.visit_lval(lv);
    };
    let mut t = Touched::default();
    match kind {
        StmtKind::Assign { dst, src } => {
            dst_walk(dst, &mut t);
            t.visit_operand(src);
        }
        StmtKind::Call { dst, callee, args } => {
            let returns_id = matches!(callee, Callee::Direct(c) if calls.is_value_create(*c));
            match (dst, dst.as_ref().and_then(place_of)) {
                // The id a value create wrapper returns is recorded as created.
                (Some(d), Some(pl)) if returns_id => {
                    t.created = Some(pl);
                    t.visit_lval(d);
                }
                (Some(d), _) => dst_walk(d, &mut t),
                (None, _) => {}
            }
            let (direct, create_id) = match callee {
                Callee::Indirect(op) => {
                    t.visit_operand(op);
                    (None, None)
                }
                Callee::Direct(c) => (Some(*c), calls.id_arg(*c, true)),
            };
            let library = direct.is_some_and(|c| {
                let func = &p.funcs[c];
                !(func.defined && func.origin == crate::ir::Origin::User)
            });
            let frees = direct.is_some_and(|c| calls.frees.contains(&c));
            if library && create_id.is_none() && !frees {
                for a in args {
                    let a = a.without_casts();
                    let ty = p.operand_type(a);
                    if let Type::Pointer(e) = p.types.get(ty) {
                        if let Type::Struct(sid) | Type::Union(sid) = p.types.get(*e) {
                            let var = match a {
                                Operand::Use(Lval {
                                    base: Base::Var(v),
                                    proj,
                                    ..
                                }) if proj.is_empty() => Some(*v),
                                _ => None,
                            };
                            t.structs_to_library.push((sid.0, var));
                        }
                    }
                }
            }
            for (k, a) in args.iter().enumerate() {
                // The thread id a create writes is recorded as created, not as an address taken.
                if Some(k) == create_id {
                    if let Operand::AddrOf(lv) = a.without_casts() {
                        match (place_of(lv), lv.proj.last()) {
                            (Some(pl), _) => t.created = Some(pl),
                            (None, Some(Proj::Field { strukt, index })) => {
                                t.created_through_pointer = Some((strukt.0, *index));
                            }
                            (None, _) => {
                                t.visit_operand(a);
                                continue;
                            }
                        }
                        t.visit_lval(lv);
                        continue;
                    }
                }
                t.visit_operand(a);
            }
        }
        StmtKind::Eval(op) => t.visit_operand(op),
        StmtKind::Asm { operands } => operands.iter().for_each(|lv| dst_walk(lv, &mut t)),
    }
    t
}
