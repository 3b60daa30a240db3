//! Struct fields and enclosing structs. Fields are created the first time something uses them
//! (paper §3.4: a struct with hundreds of fields costs only the fields used); a field created
//! only because a caller uses it holds a *pending* pointer until the function itself uses it
//! ([`LTypes::materialise`]). Every field records the struct it belongs to, so that C's step
//! back from a member to its struct (`container_of`, the first member's struct, C11
//! 6.7.2.1p15) reaches that very struct, for the generator, the relations and `void*` views.
//!
//! It must never create a field nobody uses, and never change a node without scheduling its
//! relations to be synchronised again (`resync`, or a unification on the work list).

use std::collections::BTreeSet;

use super::{FieldSlot, LTypes, Node, Pol, Rel, RhoOrigin, Shape, Work};
use crate::constraints::views::ViewKey;
use crate::ir::ctypes::{StructId, StructKind, Type, TypeId};
use solver::{Constraints, Rho, RhoKind, Scope, Site};

/// A struct memory is a field of: the struct node, its struct, the field's index (`u32::MAX`
/// when not known, [`LTypes::container_of`]).
pub(super) type Parent = (Node, StructId, u32);

/// The structs a node is a field of, a sorted set. Nearly every node is a field of one struct
/// at most, so a small set is a sorted vector of exactly its elements; only a set that grows
/// past [`Parents::FEW`] (the blob that absorbed many fields) becomes a B-tree. A B-tree for
/// each set made every field's content node carry a 144-byte tree node (bigstruct at 1M
/// lines: 3.3M fields).
#[derive(Clone, Debug)]
pub(super) enum Parents {
    Few(Vec<Parent>),
    Many(BTreeSet<Parent>),
}

/// [`Parents::iter`].
pub(super) enum ParentsIter<'a> {
    Few(std::slice::Iter<'a, Parent>),
    Many(std::collections::btree_set::Iter<'a, Parent>),
}

impl<'a> Iterator for ParentsIter<'a> {
    type Item = &'a Parent;

    fn next(&mut self) -> Option<&'a Parent> {
        match self {
            ParentsIter::Few(it) => it.next(),
            ParentsIter::Many(it) => it.next(),
        }
    }
}

impl Default for Parents {
    fn default() -> Parents {
        Parents::Few(Vec::new())
    }
}

impl Parents {
    const FEW: usize = 8;

    pub(super) fn insert(&mut self, p: Parent) {
        match self {
            Parents::Few(v) => {
                let Err(at) = v.binary_search(&p) else {
                    return;
                };
                if v.len() == Parents::FEW {
                    let mut set: BTreeSet<Parent> = v.drain(..).collect();
                    set.insert(p);
                    *self = Parents::Many(set);
                    return;
                }
                if v.capacity() == 0 {
                    v.reserve_exact(1);
                }
                v.insert(at, p);
            }
            Parents::Many(set) => {
                set.insert(p);
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Parents::Few(v) => v.len(),
            Parents::Many(set) => set.len(),
        }
    }

    /// The parents in order.
    pub(super) fn iter(&self) -> ParentsIter<'_> {
        match self {
            Parents::Few(v) => ParentsIter::Few(v.iter()),
            Parents::Many(set) => ParentsIter::Many(set.iter()),
        }
    }

    /// Adds every parent of `other`, which should be the smaller set.
    pub(super) fn extend(&mut self, other: Parents) {
        match other {
            Parents::Few(v) => v.into_iter().for_each(|p| self.insert(p)),
            Parents::Many(set) => set.into_iter().for_each(|p| self.insert(p)),
        }
    }
}

impl LTypes<'_> {
    /// The location and content of field `index` of a struct content `n`, creating it lazily.
    /// Projecting a union or a blob stays on the given location.
    pub fn field(
        &mut self,
        c: &mut Constraints,
        n: Node,
        at: Rho,
        sid: StructId,
        index: u32,
    ) -> (Rho, Node) {
        let r = self.root(n);
        match self.data[r.0 as usize].shape.clone() {
            Shape::Struct { sid: s, fields } if s == sid => {
                if let Ok(k) = fields.binary_search_by_key(&index, |f| f.index) {
                    let slot = fields[k];
                    if self.materialise(c, slot.content) {
                        self.run(c);
                    }
                    return (slot.rho, slot.content);
                }
                let scope = self.data[r.0 as usize].scope;
                let slot = self.new_field(c, r, sid, index, scope, false);
                self.run(c);
                (slot.rho, slot.content)
            }
            Shape::Var => {
                self.set_shape(
                    r,
                    Shape::Struct {
                        sid,
                        fields: Vec::new(),
                    },
                );
                self.field(c, r, at, sid, index)
            }
            Shape::Union { sid: s, inner } if s == sid => {
                let ty = self.member_type(sid, index);
                let member = match ty {
                    Some(t) => {
                        let scope = self.data[r.0 as usize].scope;
                        self.content_of_type(c, t, scope)
                    }
                    None => {
                        let scope = self.data[r.0 as usize].scope;
                        self.var(scope)
                    }
                };
                self.unify(c, inner, member);
                (at, inner)
            }
            Shape::Blob { rho, .. } => (rho, r),
            Shape::Void(_) => {
                let key = match self.types.structs[sid].kind {
                    StructKind::Struct => ViewKey::Struct(sid),
                    StructKind::Union => ViewKey::Union(sid),
                };
                let e = self.view(c, r, key, None);
                self.field(c, e, at, sid, index)
            }
            other => {
                // A struct projected as another type: conflate.
                self.note_conflation(format!("{other:?} projected as a field of {sid:?}"));
                self.conflate(c, r);
                self.field(c, r, at, sid, index)
            }
        }
    }

    fn member_type(&self, sid: StructId, index: u32) -> Option<TypeId> {
        self.types.structs[sid]
            .fields
            .get(index as usize)
            .map(|f| f.ty)
    }

    pub(super) fn new_field(
        &mut self,
        c: &mut Constraints,
        r: Node,
        sid: StructId,
        index: u32,
        scope: Scope,
        lazy: bool,
    ) -> FieldSlot {
        let shared = match &self.data[r.0 as usize].shape {
            Shape::Struct { fields, .. } if !self.field_sensitive => fields.first().map(|f| f.rho),
            _ => None,
        };
        let rho = match shared {
            Some(rho) => rho,
            None => self.new_rho(
                c,
                scope,
                RhoKind::Plain,
                RhoOrigin::Field {
                    strukt: sid,
                    index,
                    parent: r,
                },
            ),
        };
        let content = match self.member_type(sid, index) {
            Some(t) if lazy && self.is_data_pointer(t) => {
                let n = self.var(scope);
                self.data[n.0 as usize].pending = Some(t);
                n
            }
            Some(t) => self.content_of_type(c, t, scope),
            None => self.var(scope),
        };
        let slot = FieldSlot {
            index,
            rho,
            content,
        };
        self.data[content.0 as usize]
            .parents
            .insert((r, sid, index));
        if let Shape::Struct { fields, .. } = &mut self.data[r.0 as usize].shape {
            let at = fields.partition_point(|f| f.index < index);
            fields.insert(at, slot);
        }
        self.resync_field(r, index);
        slot
    }

    /// The struct of type `sid` enclosing memory `n`: the one `n` is known to be a field of, or,
    /// for conflated memory (bytes reached through a character pointer, as `container_of` does),
    /// a struct made for it, which the relations at call sites connect with the struct the
    /// caller's memory belongs to. `None` for other memory not known to be a member.
    pub fn container_of(&mut self, c: &mut Constraints, n: Node, sid: StructId) -> Option<Node> {
        if let Some(p) = self.parent_of(n, sid) {
            return Some(p);
        }
        let r = self.root(n);
        // Memory seen at several types (a `void*` content with entries, or its bytes, the
        // `Char` entry) is any member of any of its views: the struct around one of them, or
        // one made for all.
        let owner = match self.bytes_of(r) {
            Node::NONE => r,
            o => self.root(o),
        };
        let views: Vec<Node> = match &self.data[owner.0 as usize].shape {
            Shape::Void(entries) => entries
                .iter()
                .filter(|e| e.0 != ViewKey::Char)
                .map(|e| e.1)
                .collect(),
            _ => Vec::new(),
        };
        if let Some(p) = views.iter().find_map(|&e| self.parent_of(e, sid)) {
            return Some(p);
        }
        // Bytes (a character pointer's arithmetic) may be any member; a struct may be the first
        // member of a struct of the target type (C11 6.7.2.1p15).
        let first_member = match self.data[r.0 as usize].shape {
            Shape::Struct { sid: inner, .. } => self.types.structs[sid]
                .fields
                .first()
                .is_some_and(|f| *self.types.get(f.ty) == Type::Struct(inner)),
            Shape::Blob { .. } => true,
            _ => !views.is_empty(),
        };
        if !first_member {
            return None;
        }
        let scope = self.data[r.0 as usize].scope;
        let parent = self.node(
            Shape::Struct {
                sid,
                fields: Vec::new(),
            },
            scope,
        );
        // The member is somewhere inside: which field is not known (the offset is a constant
        // the IR does not keep), so the link names none.
        let members = if views.is_empty() { vec![r] } else { views };
        for m in members {
            let m = self.root(m);
            self.data[m.0 as usize]
                .parents
                .insert((parent, sid, u32::MAX));
            self.resync(m);
        }
        self.run(c);
        Some(parent)
    }

    /// The nodes a relation between `g` and `i` really relates: when one side is a struct and
    /// the other a member of a struct of that type (a step back from a member to its struct on
    /// one side of a call), the struct enclosing the member.
    pub(super) fn containers(&mut self, g: Node, i: Node) -> (Node, Node) {
        let (g, i) = (self.root(g), self.root(i));
        let sid_of = |t: &Self, n: Node| match t.data[n.0 as usize].shape {
            Shape::Struct { sid, .. } => Some(sid),
            _ => None,
        };
        if let (Some(sg), Some(si)) = (sid_of(self, g), sid_of(self, i)) {
            if sg != si {
                if let Some(p) = self.parent_of(i, sg) {
                    return (g, p);
                }
                if let Some(p) = self.parent_of(g, si) {
                    return (p, i);
                }
            }
        }
        (g, i)
    }

    /// Relates the enclosing structs of two related nodes: the struct the callee made around
    /// memory it stepped back from ([`LTypes::container_of`]) is the caller's struct around the
    /// same memory. (Structs around a field are related already, through the field.)
    pub(super) fn sync_parents(&mut self, g: Node, i: Node, site: Site) {
        let gp: Vec<(Node, StructId, u32)> = self.data[g.0 as usize]
            .parents
            .iter()
            .copied()
            .filter(|p| p.2 == u32::MAX)
            .collect();
        if gp.is_empty() {
            return;
        }
        let ip = self.data[i.0 as usize].parents.clone();
        for &(pg, sid, _) in &gp {
            for &(pi, _, _) in ip.iter().filter(|p| p.1 == sid) {
                self.add_rel(Rel::Inst {
                    generic: pg,
                    instance: pi,
                    site,
                    pol: Pol::Both,
                });
            }
        }
    }

    /// For memory `r` seen at class `key`: the enclosing struct, when `key` is the struct `r` is
    /// a field of.
    pub(super) fn member_of(&mut self, r: Node, key: ViewKey) -> Option<Node> {
        match key {
            ViewKey::Struct(sid) => self.parent_of(r, sid),
            _ => None,
        }
    }

    /// The struct of type `sid` that memory `n` is a field of, if any (C11 6.7.2.1p15: a
    /// pointer to a struct's first member, suitably converted, points to the struct, and
    /// `container_of` steps back from any member).
    pub fn parent_of(&mut self, n: Node, sid: StructId) -> Option<Node> {
        let r = self.root(n);
        let parent = self.data[r.0 as usize]
            .parents
            .iter()
            .find(|p| p.1 == sid)
            .map(|p| p.0)?;
        Some(self.root(parent))
    }

    /// Whether the content of a location of C type `ty` is a pointer to data (an array's content
    /// is its element's).
    fn is_data_pointer(&self, ty: TypeId) -> bool {
        match self.types.get(ty) {
            Type::Array(elem) => self.is_data_pointer(*elem),
            Type::Pointer(to) => !matches!(self.types.get(*to), Type::Function { .. }),
            _ => false,
        }
    }

    /// Gives a pending pointer node ([`NodeData::pending`](super::NodeData::pending)) the shape
    /// of its C type, through the work list; `false` when `n` is not pending.
    pub(super) fn materialise(&mut self, c: &mut Constraints, n: Node) -> bool {
        let r = self.root(n);
        let d = &self.data[r.0 as usize];
        let Some(ty) = d.pending.filter(|_| matches!(d.shape, Shape::Var)) else {
            return false;
        };
        let scope = d.scope;
        self.data[r.0 as usize].pending = None;
        let typed = self.content_of_type(c, ty, scope);
        self.work.push(Work::Unify(r, typed));
        true
    }
}
