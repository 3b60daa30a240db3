//! Unification (figure 7a's invariant reference contents): two nodes become one, their shapes
//! are merged into one shape whose sub-structure is unified in turn, incompatible shapes are
//! conflated into blobs, and a node unified with one of an outer scope is widened to that scope
//! together with everything below it.
//!
//! Sub-structure is unified through the work list, never by recursion on the Rust stack, and a
//! unification never loses a relation: the absorbed side's relations are rewritten onto the
//! representative ([`LTypes::rekey`]) and synchronised again when that side's view changed.

use super::{FunList, LTypes, Node, NodeData, RhoOrigin, Shape, Work};
use crate::constraints::views::{self, Overlap, ViewKey};
use solver::{Constraints, Lock, Rho, RhoKind, Scope};

impl LTypes<'_> {
    /// Turns `n` into a blob, absorbing its current structure.
    pub fn conflate(&mut self, c: &mut Constraints, n: Node) {
        let r = self.root(n);
        if matches!(self.data[r.0 as usize].shape, Shape::Blob { .. }) {
            return;
        }
        let scope = self.data[r.0 as usize].scope;
        let numbers = self.holds_only_numbers(&self.data[r.0 as usize].shape);
        let blob = self.empty_blob(c, scope);
        if let (true, Shape::Blob { rho, .. }) = (numbers, &blob) {
            self.number_blobs.insert(*rho, scope);
        }
        let blob = self.node(blob, scope);
        self.work.push(Work::Unify(r, blob));
        self.run(c);
    }

    /// A blob with a fresh location and lock of its own and no functions yet: what conflated
    /// memory starts as before it absorbs the structures that met.
    pub(super) fn empty_blob(&mut self, c: &mut Constraints, scope: Scope) -> Shape {
        let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Blob);
        let lock = c.new_lock(scope);
        let funs = self.new_fun_list(Vec::new());
        Shape::Blob { rho, lock, funs }
    }

    /// Unifies two nodes (their contents are one, figure 7a's invariant reference contents).
    ///
    /// Only the relations of a side whose view changed are synchronised again: a side whose
    /// shape, scope, depth and `void*` flag are exactly the merged node's has had every one of
    /// its relations synchronised against this very view already. When a node with many
    /// relations (a global's content, related to the view of every caller) absorbs a small one
    /// that brings nothing new, this visits the small side's relations only, instead of all of
    /// them at every unification (mt-daapd: 1 165 syncs per unification before).
    pub(super) fn do_unify(&mut self, c: &mut Constraints, a: Node, b: Node) {
        // A struct meeting a member of a struct of its type is that enclosing struct.
        let (ra, rb) = self.containers(a, b);
        if ra == rb {
            return;
        }
        let da = std::mem::replace(&mut self.data[ra.0 as usize].shape, Shape::Var);
        let db = std::mem::replace(&mut self.data[rb.0 as usize].shape, Shape::Var);
        let views = [
            (da.clone(), self.view_of(ra)),
            (db.clone(), self.view_of(rb)),
        ];
        let scope = self.common_scope(ra, rb, c);
        let rels_a = std::mem::take(&mut self.data[ra.0 as usize].rels);
        let rels_b = std::mem::take(&mut self.data[rb.0 as usize].rels);
        let depth = self.data[ra.0 as usize]
            .depth
            .min(self.data[rb.0 as usize].depth);
        // The side with more relations stays the representative: the other side's relations
        // are the ones rewritten, so each relation is rewritten O(log n) times in all.
        let a_stays = rels_a.len() >= rels_b.len();
        let r = if a_stays { ra } else { rb };
        let absorbed = if a_stays { rb } else { ra };
        self.parent[absorbed.0 as usize] = r;
        if let Some(waiting) = self.external_waiting.remove(&absorbed) {
            self.external_waiting.entry(r).or_default().extend(waiting);
        }
        // The kept side's list becomes the merged one, not copied: it is the larger, and a blob
        // absorbing many small nodes would copy its whole list at each. Its relations are the
        // merged list's first `kept_len`; the moved side's are kept for what follows.
        let (kept, moved) = if a_stays {
            (rels_a, rels_b)
        } else {
            (rels_b, rels_a)
        };
        let kept_len = kept.len();
        let mut rels = kept;
        rels.extend(self.rekey(moved.clone()));
        let void_content =
            self.data[ra.0 as usize].void_content || self.data[rb.0 as usize].void_content;
        let object = self.data[ra.0 as usize].object || self.data[rb.0 as usize].object;
        let pending = self.data[ra.0 as usize]
            .pending
            .or(self.data[rb.0 as usize].pending);
        let external = self.data[ra.0 as usize].external || self.data[rb.0 as usize].external;
        let either = |t: &Self, flag: fn(&NodeData) -> bool| {
            flag(&t.data[ra.0 as usize]) || flag(&t.data[rb.0 as usize])
        };
        let (inspected, held, lazy) = (
            either(self, |d| d.inspected),
            either(self, |d| d.held),
            either(self, |d| d.lazy),
        );
        let bytes_of = self.bytes_meet(self.bytes_of(ra), self.bytes_of(rb));
        // The smaller set goes into the larger: a large blob's set is never rebuilt.
        let mut parents = std::mem::take(&mut self.data[ra.0 as usize].parents);
        let mut other = std::mem::take(&mut self.data[rb.0 as usize].parents);
        if other.len() > parents.len() {
            std::mem::swap(&mut parents, &mut other);
        }
        parents.extend(other);
        let shape = self.merge_shapes(c, (da, db, a_stays), scope, r, void_content);
        // Each side's relations, by side (a, b).
        let sides: [&[u32]; 2] = if a_stays {
            [&rels[..kept_len], &moved]
        } else {
            [&moved, &rels[..kept_len]]
        };
        if !matches!(shape, Shape::Fun(_)) {
            for (old, list) in [(&views[0].0, sides[0]), (&views[1].0, sides[1])] {
                if matches!(old, Shape::Fun(_)) {
                    self.outs_around_former_fun(list);
                }
            }
        }
        let merged_blob = match shape {
            Shape::Blob { rho, .. } => Some(rho),
            _ => None,
        };
        let merged_list = match shape {
            Shape::Fun(l) | Shape::Blob { funs: l, .. } => Some(l),
            _ => None,
        };
        // A side that held a list brought its outs with it (`link_funs`); the relations of a
        // side that held none may now carry the merged list's functions out.
        let listless_rels: Vec<u32> = match merged_list {
            Some(_) => (0..2)
                .filter(|&side| !matches!(views[side].0, Shape::Fun(_) | Shape::Blob { .. }))
                .flat_map(|side| sides[side].iter().copied())
                .collect(),
            None => Vec::new(),
        };
        // The relations of a side that had no shape and now has one ([`LTypes::generic_typed`]).
        let typed_rels: Vec<u32> = match shape {
            Shape::Var => Vec::new(),
            _ => (0..2)
                .filter(|&side| matches!(views[side].0, Shape::Var))
                .flat_map(|side| sides[side].iter().copied())
                .collect(),
        };
        let merged = (scope, depth, void_content, object, bytes_of != Node::NONE);
        let changed = [
            !same_view(&views[0].0, &shape) || views[0].1 != merged,
            !same_view(&views[1].0, &shape) || views[1].1 != merged,
        ];
        let to_sync: Vec<u32> = (0..2)
            .filter(|&side| changed[side])
            .flat_map(|side| sides[side].iter().copied())
            .collect();
        let pending = if matches!(shape, Shape::Var) {
            pending
        } else {
            None
        };
        self.data[r.0 as usize] = NodeData {
            shape,
            scope,
            depth,
            rels,
            void_content,
            object,
            pending,
            external,
            inspected,
            held,
            lazy,
            parents,
            bytes_of,
        };
        self.bytes_to_char_entry(r);
        self.note_held(r);
        if let Some(l) = merged_list {
            self.extend_outs(l, r, &listless_rels);
        }
        self.generic_typed(r, &typed_rels);
        self.widen_inside(c, r, scope);
        if let Some(rho) = merged_blob {
            let inside = self.blob_contents.get(&rho).copied().map(|n| self.root(n));
            if inside != Some(r) {
                self.blob_tops.insert(rho, r);
            }
            self.share_blob_funs(r, rho);
        }
        if external {
            self.work.push(Work::External(r));
        }
        for id in to_sync {
            self.push_sync(id);
        }
    }

    /// What, besides its shape, a node's relations are synchronised against.
    fn view_of(&self, r: Node) -> (Scope, u8, bool, bool, bool) {
        let d = &self.data[r.0 as usize];
        (
            d.scope,
            d.depth,
            d.void_content,
            d.object,
            d.bytes_of != Node::NONE,
        )
    }

    /// Widens a node's scope to (the common ancestor with) `scope`. A node of a function's scope
    /// unified with one of an outer scope — a local buffer stored through a global pointer — is
    /// reachable from there: its labels are no longer the function's own, so they are neither
    /// copied at the function's call sites nor private to one of its runs.
    pub(super) fn do_widen(&mut self, c: &mut Constraints, n: Node, scope: Scope) {
        let r = self.root(n);
        let old = self.data[r.0 as usize].scope;
        let new = if old == scope {
            old
        } else {
            c.scopes.common_ancestor(old, scope)
        };
        if new == old {
            return;
        }
        self.data[r.0 as usize].scope = new;
        self.widen_inside(c, r, new);
        // The node is no longer generic where it was: its instantiations become unifications.
        self.resync(r);
    }

    /// Widens the labels of a node's shape and schedules its children, keeping the invariant that
    /// nothing below a node lives in a narrower scope than the node.
    fn widen_inside(&mut self, c: &mut Constraints, r: Node, scope: Scope) {
        fn widen_rho(c: &mut Constraints, rho: Rho, scope: Scope) {
            let s = c.rhos[rho].scope;
            if s != scope {
                c.rhos[rho].scope = c.scopes.common_ancestor(s, scope);
            }
        }
        fn widen_lock(c: &mut Constraints, l: Lock, scope: Scope) {
            let s = c.locks[l].scope;
            if s != scope {
                c.locks[l].scope = c.scopes.common_ancestor(s, scope);
            }
        }
        match self.data[r.0 as usize].shape.clone() {
            Shape::Var | Shape::Scalar | Shape::Fun(_) => {}
            Shape::Ptr { rho, to } => {
                widen_rho(c, rho, scope);
                self.work.push(Work::Widen(to, scope));
            }
            Shape::Struct { fields, .. } => {
                for f in fields {
                    widen_rho(c, f.rho, scope);
                    self.work.push(Work::Widen(f.content, scope));
                }
            }
            Shape::Union { inner, .. } => self.work.push(Work::Widen(inner, scope)),
            Shape::Void(entries) => {
                for (_, n) in entries {
                    self.work.push(Work::Widen(n, scope));
                }
            }
            Shape::Lock(l) => widen_lock(c, l, scope),
            Shape::Blob { rho, lock, .. } => {
                widen_rho(c, rho, scope);
                widen_lock(c, lock, scope);
            }
        }
    }

    fn common_scope(&mut self, a: Node, b: Node, c: &Constraints) -> Scope {
        let (sa, sb) = (self.data[a.0 as usize].scope, self.data[b.0 as usize].scope);
        if sa == sb {
            sa
        } else {
            c.scopes.common_ancestor(sa, sb)
        }
    }

    /// The shape of two unified nodes; sub-structure is unified through the work list.
    ///
    /// Two labels in the same place of both shapes (two pointers' targets, one field, two
    /// blobs, two locks) become one location: they flow both ways (figure 7a, \[Sub-Ref\] in
    /// both directions; `ℓ = ℓ'` for locks, \[Sub-Lock\]), one strongly connected component
    /// for every rule of figure 8. The merged shape keeps the *older* label (the smaller id),
    /// which is widened to the merged scope like any label of the shape. Which label of the
    /// component later constraints name does not matter to the solver, but keeping the older
    /// one makes a node's labels stable: a node that keeps absorbing new nodes (a global
    /// unified with the view of every caller, memory conflated again and again) would otherwise
    /// take the newcomer's labels each time, and every relation of the node would emit its
    /// instantiations again under yet another name (automount: 55 million `ρ ⪯ᵢ ρ'` for 459
    /// sites and 78 000 labels, 294 000 with the older label kept).
    ///
    /// Two blobs are the exception: the merged blob keeps the labels of the side that stays the
    /// representative (`a_stays`), the side with more relations. A blob that absorbs older
    /// blobs one at a time (the memory behind one `void *` that the objects of every module
    /// reach) would otherwise take an older label at each, and emit the instantiations of each
    /// of its relations again (a thread pool's shape: each call of a lock wrapper with an
    /// object in that memory instantiated the wrapper's blob 600 times at 100k lines).
    fn merge_shapes(
        &mut self,
        c: &mut Constraints,
        (a, b, a_stays): (Shape, Shape, bool),
        scope: Scope,
        r: Node,
        void_content: bool,
    ) -> Shape {
        match (a, b) {
            (Shape::Var, s) | (s, Shape::Var) => s,
            (Shape::Void(a), Shape::Void(b)) => {
                if self.views_itself(&a, r) || self.views_itself(&b, r) {
                    return self.conflate_shapes(c, (Shape::Void(a), Shape::Void(b)), scope);
                }
                Shape::Void(self.merge_views(r, a, b))
            }
            (Shape::Void(entries), typed) | (typed, Shape::Void(entries))
                if typed.view_key().is_some() =>
            {
                if self.views_itself(&entries, r) {
                    return self.conflate_shapes(c, (Shape::Void(entries), typed), scope);
                }
                // A `void*` content met a typed one without a cast (an argument at a site that
                // does not instantiate, a monomorphic flow): the typed shape becomes an entry.
                let key = typed.view_key().expect("checked by the guard");
                let moved = self.node(typed, scope);
                Shape::Void(self.merge_views(r, entries, vec![(key, moved)]))
            }
            (Shape::Scalar, Shape::Scalar) => Shape::Scalar,
            (Shape::Ptr { rho: r1, to: t1 }, Shape::Ptr { rho: r2, to: t2 }) => {
                self.emit_flow(c, r1, r2);
                self.emit_flow(c, r2, r1);
                self.work.push(Work::Unify(t1, t2));
                Shape::Ptr {
                    rho: r1.min(r2),
                    to: t1,
                }
            }
            (
                Shape::Struct {
                    sid: s1,
                    fields: f1,
                },
                Shape::Struct {
                    sid: s2,
                    fields: f2,
                },
            ) if s1 == s2 => {
                if let (false, Some(a), Some(b)) = (self.field_sensitive, f1.first(), f2.first()) {
                    // Field-insensitive: the one location of each side is the same location.
                    self.emit_flow(c, a.rho, b.rho);
                    self.emit_flow(c, b.rho, a.rho);
                }
                let mut fields = f1.clone();
                for g in f2 {
                    match fields.binary_search_by_key(&g.index, |f| f.index) {
                        Ok(k) => {
                            let f = fields[k];
                            self.emit_flow(c, f.rho, g.rho);
                            self.emit_flow(c, g.rho, f.rho);
                            self.work.push(Work::Unify(f.content, g.content));
                            fields[k].rho = f.rho.min(g.rho);
                        }
                        Err(k) => fields.insert(k, g),
                    }
                }
                Shape::Struct { sid: s1, fields }
            }
            (Shape::Union { sid: s1, inner: i1 }, Shape::Union { sid: s2, inner: i2 })
                if s1 == s2 =>
            {
                self.work.push(Work::Unify(i1, i2));
                Shape::Union { sid: s1, inner: i1 }
            }
            (Shape::Lock(l1), Shape::Lock(l2)) => {
                c.lock_eq(l1, l2);
                Shape::Lock(l1.min(l2))
            }
            (Shape::Fun(t1), Shape::Fun(t2)) => Shape::Fun(self.link_funs(t1, t2)),
            (
                Shape::Blob { rho, lock, funs },
                Shape::Blob {
                    rho: rho2,
                    lock: lock2,
                    funs: funs2,
                },
            ) => {
                // The memory inside two blobs that became one is one memory too, kept under
                // the label the blob keeps.
                let (kept_rho, kept_lock) = if a_stays { (rho, lock) } else { (rho2, lock2) };
                if !(self.number_blobs.contains_key(&rho) && self.number_blobs.contains_key(&rho2))
                {
                    self.promote(c, rho);
                    self.promote(c, rho2);
                }
                match (
                    self.blob_contents.get(&rho).copied(),
                    self.blob_contents.get(&rho2).copied(),
                ) {
                    (Some(inside), Some(inside2)) => self.work.push(Work::Unify(inside, inside2)),
                    (None, Some(inside)) | (Some(inside), None) => {
                        self.blob_contents.insert(kept_rho, inside);
                    }
                    (None, None) => {}
                }
                let funs = self.absorb(
                    c,
                    rho,
                    lock,
                    funs,
                    Shape::Blob {
                        rho: rho2,
                        lock: lock2,
                        funs: funs2,
                    },
                );
                Shape::Blob {
                    rho: kept_rho,
                    lock: kept_lock,
                    funs,
                }
            }
            (Shape::Blob { rho, lock, funs }, other) | (other, Shape::Blob { rho, lock, funs }) => {
                let funs = self.absorb(c, rho, lock, funs, other);
                Shape::Blob { rho, lock, funs }
            }
            (a, b) => match (a.view_key(), b.view_key()) {
                (Some(ka), Some(kb))
                    if void_content
                        && self.void_model
                        && views::overlap_kind(self.types, ka, kb) != Overlap::Whole =>
                {
                    // Two types met in the memory of a `void*` (paper §3.4): each keeps its own
                    // entry (sharing its first members with the other's, `merge_views`).
                    let (na, nb) = (self.node(a, scope), self.node(b, scope));
                    Shape::Void(self.merge_views(r, vec![(ka, na)], vec![(kb, nb)]))
                }
                _ => self.conflate_shapes(c, (a, b), scope),
            },
        }
    }

    /// Incompatible shapes (a cast between unrelated types, a `void*` content unified with one
    /// of its own views; paper §3.4, which gives such memory one conflated label): both are
    /// conflated into a blob, whose labels are in the scope of the
    /// merged node. The memory inside a blob lives at the root ([`LTypes::blob_content`]) and
    /// shares the blob's labels, so as soon as anything is inside it (a pointer, a field's
    /// value) the labels are the root's: a conflated location is then never a copy. A blob of
    /// two views of one object with nothing inside (a local `struct sockaddr_in` that `accept`
    /// fills through a `struct sockaddr *`) stays the object of its function's run, as their
    /// unification would; at the root, every such local was shared by all threads.
    fn conflate_shapes(
        &mut self,
        c: &mut Constraints,
        (a, b): (Shape, Shape),
        scope: Scope,
    ) -> Shape {
        self.note_conflation(format!("{a:?} meets {b:?}"));
        let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Blob);
        let lock = c.new_lock(scope);
        if self.holds_only_numbers(&a) && self.holds_only_numbers(&b) {
            self.number_blobs.insert(rho, scope);
        }
        let funs = self.new_fun_list(Vec::new());
        let funs = self.absorb(c, rho, lock, funs, a);
        let funs = self.absorb(c, rho, lock, funs, b);
        Shape::Blob { rho, lock, funs }
    }

    /// Whether a `void*` content that became node `r` has `r` itself among its views: memory
    /// that is both untyped and one of its own typed views has no consistent entry structure.
    fn views_itself(&mut self, entries: &[(ViewKey, Node)], r: Node) -> bool {
        entries.iter().any(|&(_, n)| self.root(n) == r)
    }

    /// The node of the memory inside the blob labelled `rho` (with lock `lock`): what its
    /// pointers point to and its fields hold. Conflated memory is closed under dereference, so
    /// this is one node per blob, made at the first absorption and kept in `blob_contents`;
    /// like the blob's labels it lives at the root (a conflated location is never a copy).
    /// A fresh node at every absorption would be the same memory split into unrelated nodes
    /// with the same labels, each with its own relations and function targets (mt-daapd made
    /// 372 000 of them before its first function was generated).
    ///
    /// Departure from the paper (§3.4 gives conflated memory one label at the root): the
    /// content of a blob of numbers ([`LTypes::number_blobs`]) stays in the blob's own scope.
    /// It holds no label but the blob's own, so a local `struct sockaddr_in` filled and then
    /// cast stays its run's own object; at the root, every thread's local was one object
    /// shared by all.
    fn blob_content(&mut self, rho: Rho, lock: Lock) -> Node {
        if let Some(&n) = self.blob_contents.get(&rho) {
            return self.root(n);
        }
        let scope = self.number_blobs.get(&rho).copied().unwrap_or(Scope::ROOT);
        let funs = self.new_fun_list(Vec::new());
        let blob = self.node(Shape::Blob { rho, lock, funs }, scope);
        self.blob_contents.insert(rho, blob);
        self.share_blob_funs(blob, rho);
        blob
    }

    /// Blob `rho` stops being a blob of numbers: something with labels (a pointer, a lock, a
    /// function, memory of another blob) met it, so its content lives at the root as every
    /// blob's does, and is widened there if it was already made.
    fn promote(&mut self, c: &mut Constraints, rho: Rho) {
        if self.number_blobs.remove(&rho).is_none() {
            return;
        }
        if let Some(&inside) = self.blob_contents.get(&rho) {
            self.do_widen(c, inside, Scope::ROOT);
        }
    }

    /// A blob node and the node of the memory inside it share one list of function targets.
    /// The memory inside ([`LTypes::blob_content`]) is a node of its own with the blob's
    /// labels, but [`LTypes::field`] and [`LTypes::deref`] of the blob node give the blob node
    /// itself: a callback stored in a struct field before the struct was conflated went to the
    /// content node while the call read it from the blob node, and was never called (a missed
    /// race). Sharing the targets, not unifying the two nodes, keeps the labels and relations
    /// of each as they were: unifying them widened every blob to the root scope, which turned
    /// each caller's copy of a conflated parameter into the one blob (mt-daapd: 2.4 s to
    /// 250 s). The two lists are linked into one ([`LTypes::link_funs`]).
    pub(super) fn share_blob_funs(&mut self, r: Node, rho: Rho) {
        let Some(twin) = self.blob_twin(r, rho) else {
            return;
        };
        if let (Some(mine), Some(theirs)) = (self.blob_list(r), self.blob_list(twin)) {
            self.link_funs(mine, theirs);
        }
    }

    /// The other node of blob `r` labelled `rho`: its content node if `r` is the blob, the
    /// blob if `r` is the content.
    pub(super) fn blob_twin(&mut self, r: Node, rho: Rho) -> Option<Node> {
        let inside = self.blob_contents.get(&rho).copied().map(|n| self.root(n));
        let twin = if inside == Some(r) {
            self.blob_tops.get(&rho).copied().map(|n| self.root(n))
        } else {
            inside
        };
        twin.filter(|&t| t != r)
    }

    fn blob_list(&self, n: Node) -> Option<FunList> {
        match self.data[n.0 as usize].shape {
            Shape::Blob { funs, .. } => Some(funs),
            _ => None,
        }
    }

    /// Absorbs a shape into the blob `(rho, lock, funs)`: all its labels become the blob's.
    fn absorb(
        &mut self,
        c: &mut Constraints,
        rho: Rho,
        lock: Lock,
        funs: FunList,
        s: Shape,
    ) -> FunList {
        let numbers = match &s {
            Shape::Var => true,
            Shape::Blob { rho: inner, .. } => self.number_blobs.contains_key(inner),
            other => self.holds_only_numbers(other),
        };
        if !numbers {
            self.promote(c, rho);
        }
        match s {
            Shape::Var | Shape::Scalar => {}
            Shape::Ptr { rho: r, to } => {
                self.emit_flow(c, r, rho);
                self.emit_flow(c, rho, r);
                let blob = self.blob_content(rho, lock);
                self.work.push(Work::Unify(to, blob));
            }
            Shape::Struct { fields, .. } => {
                for f in fields {
                    self.emit_flow(c, f.rho, rho);
                    self.emit_flow(c, rho, f.rho);
                    let blob = self.blob_content(rho, lock);
                    self.work.push(Work::Unify(f.content, blob));
                }
            }
            Shape::Union { inner, .. } => {
                let blob = self.blob_content(rho, lock);
                self.work.push(Work::Unify(inner, blob));
            }
            Shape::Void(entries) => {
                let blob = self.blob_content(rho, lock);
                for (_, n) in entries {
                    self.work.push(Work::Unify(n, blob));
                }
            }
            Shape::Lock(l) => c.lock_eq(l, lock),
            Shape::Fun(t) => return self.link_funs(funs, t),
            Shape::Blob {
                rho: r,
                lock: l,
                funs: f,
            } => {
                self.emit_flow(c, r, rho);
                self.emit_flow(c, rho, r);
                c.lock_eq(l, lock);
                return self.link_funs(funs, f);
            }
        }
        funs
    }
}

/// Whether a relation synchronised against shape `old` needs no new synchronisation now that its
/// node has shape `merged` (the result of [`LTypes::merge_shapes`] with `old` on one side): the
/// same constructor with the same labels, fields, function targets and `void*` classes. Child
/// nodes are not compared: `merge_shapes` unifies the children of both sides, and a relation
/// between children is carried over to the representative when they are unified.
fn same_view(old: &Shape, merged: &Shape) -> bool {
    match (old, merged) {
        (Shape::Var, Shape::Var) | (Shape::Scalar, Shape::Scalar) => true,
        (Shape::Ptr { rho: a, .. }, Shape::Ptr { rho: b, .. }) => a == b,
        (
            Shape::Struct {
                sid: s1,
                fields: f1,
            },
            Shape::Struct {
                sid: s2,
                fields: f2,
            },
        ) => {
            s1 == s2
                && f1.len() == f2.len()
                && f1
                    .iter()
                    .zip(f2)
                    .all(|(x, y)| x.index == y.index && x.rho == y.rho)
        }
        (Shape::Union { sid: s1, .. }, Shape::Union { sid: s2, .. }) => s1 == s2,
        (Shape::Lock(a), Shape::Lock(b)) => a == b,
        // A list that grew in the merge has its outs synchronised by `link_funs`; the
        // relations that bring functions into it gain nothing.
        (Shape::Fun(_), Shape::Fun(_)) => true,
        (Shape::Blob { .. }, Shape::Blob { .. }) => old == merged,
        (Shape::Void(a), Shape::Void(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0)
        }
        _ => false,
    }
}
