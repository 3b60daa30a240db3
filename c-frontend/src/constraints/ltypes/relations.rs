//! The relations between nodes: flows (`source ≤ target`) and instantiations
//! (`generic ⪯ᵢᵖ instance`). This module keeps the relation table (each relation once, in its
//! current form, with redundant ones dropped and one instance per generic node and site),
//! schedules synchronisations, and synchronises flows; instantiations are synchronised in
//! [`super::instances`].
//!
//! A relation is only added or rewritten in its canonical form (both endpoints
//! representatives), and is only ever synchronised from the work list, never recursively.

use super::{LTypes, Node, Rel, RelState, Shape, Work};
use crate::constraints::views::ViewKey;
use crate::ir::ctypes::StructId;
use solver::Constraints;

impl LTypes<'_> {
    /// Schedules a synchronisation of relation `id`, unless one is already waiting: a sync reads
    /// the current shapes of both endpoints when it runs, so one pending sync covers every change
    /// made before it runs.
    pub(super) fn push_sync(&mut self, id: u32) {
        let k = id as usize;
        if self.rel_state[k] == RelState::Live && !self.queued[k] {
            self.queued[k] = true;
            self.work.push(Work::Sync(id));
        }
    }

    /// The relations of the absorbed side of a unification, rewritten to their endpoints'
    /// representatives ([`LTypes::canonical`]), without redundant ones: a relation equal to
    /// another live one, or a flow from a node to itself, is dropped ([`RelState`]). Relations of
    /// the side that stays the representative keep their form, so only this side is visited.
    pub(super) fn rekey(&mut self, rels: Vec<u32>) -> Vec<u32> {
        let mut out = Vec::with_capacity(rels.len());
        for id in rels {
            let k = id as usize;
            if self.rel_state[k] == RelState::Dead {
                continue;
            }
            let rel = self.canonical(self.rels[k]);
            match self.rel_index.get(&rel) {
                Some(&other) if other != id && self.rel_state[other as usize] != RelState::Dead => {
                    self.rel_state[k] = RelState::Dead;
                    continue;
                }
                _ => {}
            }
            match rel {
                Rel::Flow { source, target }
                | Rel::MayBe {
                    global: source,
                    object: target,
                } if source == target => {
                    self.rel_state[k] = RelState::Dead;
                    continue;
                }
                Rel::Inst {
                    generic, instance, ..
                } if generic == instance => self.rel_state[k] = RelState::SelfInst,
                _ => {}
            }
            self.rels[k] = rel;
            self.rel_index.insert(rel, id);
            self.one_instance_per_site(id);
            out.push(id);
        }
        out
    }

    pub(super) fn add_rel(&mut self, rel: Rel) {
        let rel = self.canonical(rel);
        if let Rel::Flow { source, target }
        | Rel::MayBe {
            global: source,
            object: target,
        } = rel
        {
            if source == target {
                // A node's values flow to itself, or memory may be itself: nothing to
                // synchronise.
                return;
            }
        }
        if let Some(&other) = self.rel_index.get(&rel) {
            if self.rel_state[other as usize] != RelState::Dead {
                return;
            }
        }
        let id = self.rels.len() as u32;
        self.rels.push(rel);
        self.queued.push(false);
        self.parked.push(Node::NONE);
        self.rel_state.push(RelState::Live);
        self.rel_index.insert(rel, id);
        self.one_instance_per_site(id);
        let (a, b) = rel.nodes();
        self.data[a.0 as usize].rels.push(id);
        if b != a {
            self.data[b.0 as usize].rels.push(id);
        }
        for n in if a == b { vec![a] } else { vec![a, b] } {
            if let Some(l) = self.node_list(n) {
                self.extend_outs(l, n, &[id]);
            }
        }
        self.push_sync(id);
    }

    fn canonical(&mut self, rel: Rel) -> Rel {
        match rel {
            Rel::Inst {
                generic,
                instance,
                site,
                pol,
            } => Rel::Inst {
                generic: self.root(generic),
                instance: self.root(instance),
                site,
                pol,
            },
            Rel::Flow { source, target } => Rel::Flow {
                source: self.root(source),
                target: self.root(target),
            },
            Rel::MayBe { global, object } => Rel::MayBe {
                global: self.root(global),
                object: self.root(object),
            },
        }
    }

    /// Semi-unification for nodes: the substitution at a site is a function, so a generic node
    /// has one instance per site; two instances at one site are unified. Without this a recursive
    /// struct would unfold forever at a call site. Called for relation `id` in its current form
    /// whenever it is added or rewritten: the first relation seen for a generic node and site
    /// stands for that pair, and the instance of every other one is unified with its instance.
    fn one_instance_per_site(&mut self, id: u32) {
        let Rel::Inst {
            generic,
            instance,
            site,
            ..
        } = self.rels[id as usize]
        else {
            return;
        };
        match self.instance_at.get(&(generic, site)) {
            Some(&other) if other != id => {
                let Rel::Inst {
                    generic: g2,
                    instance: i2,
                    ..
                } = self.rels[other as usize]
                else {
                    unreachable!("instance_at holds instantiations only");
                };
                if self.root(g2) == generic {
                    let i2 = self.root(i2);
                    let (i2, instance) = (
                        self.typed_instance(generic, i2),
                        self.typed_instance(generic, instance),
                    );
                    if i2 != instance {
                        self.work.push(Work::Unify(i2, instance));
                    }
                    return;
                }
                self.instance_at.insert((generic, site), id);
            }
            Some(_) => {}
            None => {
                self.instance_at.insert((generic, site), id);
            }
        }
    }

    /// What an instance `i` of a typed generic node stands for: `i` itself, or, when `i` is a
    /// `void*` content, its entry for the generic's type (the instance a relation between the
    /// two is synchronised to, see `sync_structure`). Two relations of one generic node at one
    /// site, one made before the instance became untyped memory and one after, then name the
    /// same instance, and the memory is not unified with one of its own views.
    fn typed_instance(&mut self, generic: Node, i: Node) -> Node {
        let g = self.root(generic);
        let Some(key) = self.data[g.0 as usize].shape.view_key() else {
            return i;
        };
        let r = self.root(i);
        match &self.data[r.0 as usize].shape {
            Shape::Void(entries) => match entries.binary_search_by_key(&key, |e| e.0) {
                Ok(k) => {
                    let e = entries[k].1;
                    self.root(e)
                }
                Err(_) => r,
            },
            _ => r,
        }
    }

    pub(super) fn do_sync(&mut self, c: &mut Constraints, id: u32) {
        match self.rels[id as usize] {
            Rel::Flow { source, target } => self.sync_flow(c, source, target),
            Rel::MayBe { global, object } => self.sync_may_be(c, global, object),
            Rel::Inst {
                generic,
                instance,
                site,
                pol,
            } => self.sync_inst(c, generic, instance, site, pol),
        }
    }

    fn sync_flow(&mut self, c: &mut Constraints, source: Node, target: Node) {
        let (s, t) = (self.root(source), self.root(target));
        if s == t {
            return;
        }
        // A value flowing is used: a pending pointer gets its type first (the unification
        // synchronises this relation again).
        let pending_s = self.materialise(c, s);
        if self.materialise(c, t) || pending_s {
            return;
        }
        if matches!(self.data[s.0 as usize].shape, Shape::Fun(_))
            && matches!(self.data[t.0 as usize].shape, Shape::Fun(_))
        {
            return self.flow_funs(s, t);
        }
        let (ss, ts) = (
            self.data[s.0 as usize].shape.clone(),
            self.data[t.0 as usize].shape.clone(),
        );
        match (ss, ts) {
            (Shape::Var, Shape::Var) => {}
            // A byte of memory seen at other types too, copied: possibly part of a pointer,
            // so the two are one, as two blobs were (`bytes_meet`).
            (Shape::Scalar, Shape::Scalar) if self.bytes_of(s) != Node::NONE => {
                self.work.push(Work::Unify(s, t))
            }
            (Shape::Scalar, Shape::Scalar) => {}
            // A character value read from a `void*` content, or stored into one, is its bytes.
            (Shape::Void(_), Shape::Scalar) => {
                let bytes = self.view_entry(c, s, ViewKey::Char, None);
                self.work.push(Work::Unify(bytes, t));
            }
            (Shape::Scalar, Shape::Void(_)) => {
                let bytes = self.view_entry(c, t, ViewKey::Char, None);
                self.work.push(Work::Unify(s, bytes));
            }
            (Shape::Ptr { rho: r1, to: t1 }, Shape::Ptr { rho: r2, to: t2 }) => {
                self.emit_flow(c, r1, r2);
                self.work.push(Work::Unify(t1, t2));
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
                // A struct copy: every field's value flows, for the fields either side uses.
                let mut indices: Vec<u32> = f1.iter().chain(&f2).map(|f| f.index).collect();
                indices.sort();
                indices.dedup();
                for index in indices {
                    self.flow_field(c, (s, t), s1, index);
                }
            }
            (Shape::Union { sid: s1, inner: i1 }, Shape::Union { sid: s2, inner: i2 })
                if s1 == s2 =>
            {
                self.add_rel(Rel::Flow {
                    source: i1,
                    target: i2,
                });
            }
            (Shape::Lock(l1), Shape::Lock(l2)) => c.lock_eq(l1, l2),
            // The bytes of an object of numbers copied into one of other numbers (`memcpy` of
            // a `struct in_addr` into a `char` buffer): no value that flows carries a label, so
            // the two objects stay apart. Unified, they were one blob whose memory is the
            // root's, and every thread's own buffer was shared.
            (a, b) if self.holds_only_numbers(&a) && self.holds_only_numbers(&b) => {}
            _ => self.work.push(Work::Unify(s, t)),
        }
    }

    /// Field `index` of struct `sid` flows from struct node `s` to struct node `t` (both
    /// representatives; \[Sub\], figure 7a, for one field of a struct copy), created on either
    /// side that lacks it.
    fn flow_field(&mut self, c: &mut Constraints, (s, t): (Node, Node), sid: StructId, index: u32) {
        self.work_done[4] += 1;
        let scope_s = self.data[s.0 as usize].scope;
        let scope_t = self.data[t.0 as usize].scope;
        let a = self.field_slot(c, s, sid, index, scope_s, false).content;
        let b = self.field_slot(c, t, sid, index, scope_t, false).content;
        self.add_rel(Rel::Flow {
            source: a,
            target: b,
        });
    }

    /// [`Work::SyncField`]: a struct endpoint of relation `id` gained field `index`. Every
    /// synchronisation of a relation between two structs of one type pairs each field either
    /// side has, so when the relation was synchronised before the field was made, that field is
    /// the only one left to pair. Adding a field then costs one pairing per relation of the
    /// struct, where synchronising every relation again paired all of its fields (a struct
    /// whose fields are made one at a time, over many call sites, was paired again for each).
    /// A relation in any other form is synchronised whole.
    pub(super) fn do_sync_field(&mut self, c: &mut Constraints, id: u32, index: u32) {
        if self.rel_state[id as usize] != RelState::Live || self.queued[id as usize] {
            // Dead, or a synchronisation of the whole relation is waiting and covers the field.
            return;
        }
        match self.rels[id as usize] {
            Rel::Flow { source, target } => {
                let (s, t) = (self.root(source), self.root(target));
                if let Some(sid) = self.same_struct(s, t) {
                    return self.flow_field(c, (s, t), sid, index);
                }
            }
            Rel::Inst {
                generic,
                instance,
                site,
                ..
            } => {
                // The relation's own nodes, not the structs around them (`containers`), which
                // it relates only when the two are structs of different types: there the
                // field's index would be another struct's numbering.
                let (g, i) = (self.root(generic), self.root(instance));
                if let (Some(sid), Some(depth)) =
                    (self.same_struct(g, i), self.copy_depth(c, g, i, site))
                {
                    self.creating_depth = depth + 1;
                    if !self.inst_field_on_demand(c, (g, i), sid, index, site) {
                        self.parked[id as usize] = i;
                    }
                    self.creating_depth = 0;
                    return;
                }
            }
            Rel::MayBe { .. } => {}
        }
        self.push_sync(id);
    }

    /// The struct type of `a` and `b`, two distinct representatives, when both are structs of
    /// one type.
    fn same_struct(&self, a: Node, b: Node) -> Option<StructId> {
        match (
            &self.data[a.0 as usize].shape,
            &self.data[b.0 as usize].shape,
        ) {
            (Shape::Struct { sid, .. }, Shape::Struct { sid: other, .. })
                if a != b && sid == other =>
            {
                Some(*sid)
            }
            _ => None,
        }
    }

    /// Whether memory of shape `s` holds numbers only, whatever fields are made later: a
    /// scalar, or a struct or union whose type has only numbers inside.
    pub(super) fn holds_only_numbers(&self, s: &Shape) -> bool {
        match s {
            Shape::Scalar => true,
            Shape::Struct { sid, .. } | Shape::Union { sid, .. } => {
                self.types.holds_only_numbers(*sid)
            }
            _ => false,
        }
    }
}
