//! The memory a `void*` points to (paper §3.4): the entries of a [`Shape::Void`], one node per
//! type class the memory is cast to or from, made on demand by [`LTypes::view`], and the merge
//! of two entry lists when their contents become one node.
//!
//! Which classes may overlap is decided by [`crate::constraints::views`], never here; this module
//! only keeps the entries and unifies those that overlap (all of them under `--no-void`), or, for
//! two structs with common initial members, those members ([`LTypes::do_share_prefix`]). An
//! entry must never be the `void*` content's own node: `merge_shapes` conflates such a content
//! before its entries are merged.

use rustc_hash::FxHashSet;

use super::{LTypes, Node, RhoOrigin, Shape, Work};
use crate::constraints::views::{self, Overlap, ViewKey};
use crate::ir::ctypes::TypeId;
use solver::{Constraints, RhoKind, Scope};

impl LTypes<'_> {
    /// The node of the memory `n` at type class `key` (paper §3.4): `n` is the content of a
    /// `void*` and `key` the class of a type it is cast to or from (`ty`, when the C type is
    /// known, gives the entry its exact shape). Casts at one class meet at one entry; an entry is
    /// unified with every entry C lets it overlap, and with every other entry under `--no-void`.
    pub fn view(&mut self, c: &mut Constraints, n: Node, key: ViewKey, ty: Option<TypeId>) -> Node {
        let e = self.view_entry(c, n, key, ty);
        self.run(c);
        self.root(e)
    }

    /// [`LTypes::view`] without running the work list.
    pub(super) fn view_entry(
        &mut self,
        c: &mut Constraints,
        n: Node,
        key: ViewKey,
        ty: Option<TypeId>,
    ) -> Node {
        let r = self.root(n);
        let scope = self.data[r.0 as usize].scope;
        let fresh = |t: &mut Self, c: &mut Constraints| match ty {
            Some(ty) => t.content_of_type(c, ty, scope),
            None => t.node_of_key(c, key, scope),
        };
        let entries = match self.data[r.0 as usize].shape.clone() {
            Shape::Void(entries) => entries,
            Shape::Blob { .. } => return r,
            // Memory seen at one class only is simply of that class: the entry structure is
            // built when a second class arrives, so single-typed `void*` contents keep the
            // context-sensitive treatment of any typed content.
            Shape::Var => {
                let e = fresh(self, c);
                self.work.push(Work::Unify(r, e));
                return r;
            }
            typed => match typed.view_key() {
                Some(k) if k == key => return r,
                // Memory that is a member of a struct seen as that struct (the first member's
                // struct, or `container_of`): the struct itself, not a merge of the two views.
                Some(_) if self.member_of(r, key).is_some() => {
                    return self.member_of(r, key).expect("checked above");
                }
                Some(k)
                    if !self.void_model
                        || views::overlap_kind(self.types, k, key) == Overlap::Whole =>
                {
                    self.note_conflation(format!("void* viewed as {k:?} and {key:?}"));
                    let e = fresh(self, c);
                    self.work.push(Work::Unify(r, e));
                    return r;
                }
                // A typed content seen at a second, separate class (or a struct sharing only its
                // first members with it): its shape becomes an entry.
                Some(k) => vec![(k, self.node(typed, scope))],
                None => return r,
            },
        };
        if let Ok(k) = entries.binary_search_by_key(&key, |e| e.0) {
            return entries[k].1;
        }
        let e = fresh(self, c);
        let entries = self.merge_views(r, entries, vec![(key, e)]);
        self.set_shape(r, Shape::Void(entries));
        self.bytes_to_char_entry(r);
        e
    }

    /// A fresh content node of type class `key`.
    pub(super) fn node_of_key(&mut self, c: &mut Constraints, key: ViewKey, scope: Scope) -> Node {
        let shape = match key {
            ViewKey::Char | ViewKey::Int | ViewKey::Float => Shape::Scalar,
            ViewKey::Ptr => {
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Target);
                let to = self.var(scope);
                Shape::Ptr { rho, to }
            }
            ViewKey::Fun => Shape::Fun(self.new_fun_list(Vec::new())),
            ViewKey::Lock => Shape::Lock(c.new_lock(scope)),
            ViewKey::Struct(sid) => Shape::Struct {
                sid,
                fields: Vec::new(),
            },
            ViewKey::Union(sid) => {
                let inner = self.var(scope);
                Shape::Union { sid, inner }
            }
        };
        self.node(shape, scope)
    }

    /// The entries of two `void*` contents that became one, node `owner`: entries of one class
    /// are unified, and each new class is unified with the classes it overlaps (all of them
    /// without the `void*` model). No entry is the merged node itself: `merge_shapes` conflates
    /// such a content (`views_itself`) before it gets here, and a stored `Void` shape never
    /// holds one. The `Char` entry is the bytes of `owner` ([`LTypes::bytes_meet`]).
    pub(super) fn merge_views(
        &mut self,
        owner: Node,
        mut into: Vec<(ViewKey, Node)>,
        more: Vec<(ViewKey, Node)>,
    ) -> Vec<(ViewKey, Node)> {
        let mut added = Vec::new();
        for (key, n) in more {
            match into.binary_search_by_key(&key, |e| e.0) {
                Ok(k) => self.work.push(Work::Unify(into[k].1, n)),
                Err(k) => {
                    into.insert(k, (key, n));
                    added.push((key, n));
                }
            }
        }
        for (key, n) in added {
            for &(other, m) in &into {
                if other == key {
                    continue;
                }
                let overlap = match self.void_model {
                    true => views::overlap_kind(self.types, key, other),
                    false => Overlap::Whole,
                };
                match overlap {
                    Overlap::Apart => {}
                    Overlap::Prefix(members) => self.work.push(Work::Prefix(n, m, members)),
                    Overlap::Whole => {
                        self.note_conflation(format!("void* viewed as {key:?} and {other:?}"));
                        self.work.push(Work::Unify(n, m));
                    }
                }
            }
        }
        if let Ok(k) = into.binary_search_by_key(&ViewKey::Char, |e| e.0) {
            self.add_bytes_of(into[k].1, owner);
        }
        into
    }

    /// Two struct entries of one `void*` content that share their first `members` members
    /// ([`Overlap::Prefix`]): each of those members is one location (its labels flow both ways,
    /// as a field's do when two nodes of one struct are unified) with one content, while each
    /// view keeps the members after them, its own callbacks and pointers. Departure from the
    /// paper (§3.4 conflates the two views): see ARCHITECTURE.md, "Where the implementation
    /// departs from the paper". A view that is no longer a struct (conflated memory, a content
    /// cast again) is made one node with the other, as before.
    pub(super) fn do_share_prefix(&mut self, c: &mut Constraints, a: Node, b: Node, members: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return;
        }
        let (Shape::Struct { sid: sa, .. }, Shape::Struct { sid: sb, .. }) = (
            &self.data[ra.0 as usize].shape,
            &self.data[rb.0 as usize].shape,
        ) else {
            self.note_conflation(format!("views {ra:?} and {rb:?} no longer structs"));
            self.work.push(Work::Unify(ra, rb));
            return;
        };
        let (sa, sb) = (*sa, *sb);
        let (scope_a, scope_b) = (
            self.data[ra.0 as usize].scope,
            self.data[rb.0 as usize].scope,
        );
        for index in 0..members {
            let fa = self.field_slot(c, ra, sa, index, scope_a, false);
            let fb = self.field_slot(c, rb, sb, index, scope_b, false);
            self.emit_flow(c, fa.rho, fb.rho);
            self.emit_flow(c, fb.rho, fa.rho);
            self.work.push(Work::Unify(fa.content, fb.content));
        }
    }

    /// Makes `bytes` (a `Char` entry) the bytes of `owner` too.
    fn add_bytes_of(&mut self, bytes: Node, owner: Node) {
        let bytes = self.root(bytes);
        let was = self.data[bytes.0 as usize].bytes_of;
        self.data[bytes.0 as usize].bytes_of = self.bytes_meet(was, owner);
        if was == Node::NONE {
            // A byte view's flows now carry its owner (`sync_flow`).
            self.resync(bytes);
        }
    }

    /// Node `r` became a `void*` content with entries: if it was the bytes of other memory,
    /// its `Char` entry (where its character shape went) is those bytes now, not the content.
    pub(super) fn bytes_to_char_entry(&mut self, r: Node) {
        let owner = self.data[r.0 as usize].bytes_of;
        let Shape::Void(entries) = &self.data[r.0 as usize].shape else {
            return;
        };
        if owner == Node::NONE {
            return;
        }
        let Ok(k) = entries.binary_search_by_key(&ViewKey::Char, |e| e.0) else {
            return;
        };
        let bytes = entries[k].1;
        self.data[r.0 as usize].bytes_of = Node::NONE;
        self.add_bytes_of(bytes, owner);
    }

    /// What the representative `r` is the bytes of (`NodeData::bytes_of`).
    pub(super) fn bytes_of(&self, r: Node) -> Node {
        self.data[r.0 as usize].bytes_of
    }

    /// The owner of bytes that are the bytes of both `a` and `b` (either may be
    /// [`Node::NONE`]): bytes copied between two contents may be pointers, so two owners
    /// meeting are unified, as two blobs meeting were (C lets an object's bytes be copied
    /// through `char` lvalues, C11 6.5p7).
    pub(super) fn bytes_meet(&mut self, a: Node, b: Node) -> Node {
        if a == Node::NONE {
            return b;
        }
        if b != Node::NONE && self.root(a) != self.root(b) {
            self.work.push(Work::Unify(a, b));
        }
        a
    }

    /// Settles, once generation is over, which memory is seen both as bytes and at another
    /// type: every `void*` content with a `Char` entry beside another entry, and every node
    /// related to one of those entries by instantiation, either way (the same memory in another
    /// calling context: a callee reading a caller's struct through a `char *`, a caller reading
    /// the bytes of a callee's object). [`LTypes::blob_ties`] makes such memory one location.
    pub fn settle_byte_views(&mut self) {
        let mut seeds = Vec::new();
        for n in 0..self.data.len() as u32 {
            if self.parent[n as usize] != Node(n) {
                continue;
            }
            if let Shape::Void(entries) = &self.data[n as usize].shape {
                if entries.len() > 1 && entries[0].0 == ViewKey::Char {
                    seeds.push(n);
                    seeds.extend(entries[1..].iter().map(|e| e.1 .0));
                }
            }
        }
        if seeds.is_empty() {
            self.byte_views = ByteViews::default();
            return;
        }
        let mut comp: Vec<u32> = (0..self.data.len() as u32).collect();
        fn find(comp: &mut [u32], mut x: u32) -> u32 {
            while comp[x as usize] != x {
                comp[x as usize] = comp[comp[x as usize] as usize];
                x = comp[x as usize];
            }
            x
        }
        for k in 0..self.rels.len() {
            if let super::Rel::Inst {
                generic, instance, ..
            } = self.rels[k]
            {
                let (g, i) = (self.root(generic).0, self.root(instance).0);
                let (a, b) = (find(&mut comp, g), find(&mut comp, i));
                if a != b {
                    comp[a.max(b) as usize] = a.min(b);
                }
            }
        }
        let mut seeded = FxHashSet::default();
        for s in seeds {
            let r = self.root(Node(s)).0;
            seeded.insert(find(&mut comp, r));
        }
        for x in 0..comp.len() as u32 {
            let c = find(&mut comp, x);
            comp[x as usize] = c;
        }
        self.byte_views = ByteViews { comp, seeded };
    }

    /// Whether the memory node `n` (a representative) is seen both as bytes and at another
    /// type ([`LTypes::settle_byte_views`]).
    pub(super) fn byte_viewed(&self, n: Node) -> bool {
        let v = &self.byte_views;
        v.comp
            .get(n.0 as usize)
            .is_some_and(|c| v.seeded.contains(c))
    }
}

/// The result of [`LTypes::settle_byte_views`]: a component per node, by instantiation
/// relations, and the components holding memory seen both as bytes and at another type.
#[derive(Default)]
pub(super) struct ByteViews {
    comp: Vec<u32>,
    seeded: FxHashSet<u32>,
}
