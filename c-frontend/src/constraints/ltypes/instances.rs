//! Instantiation at call and fork sites (figure 7b made lazy): synchronising a relation
//! `generic ⪯ᵢᵖ instance` gives the caller's node the structure of the callee's generic node as
//! either side gains structure, emitting `ρ ⪯ᵢᵖ ρ'` and `ℓ ⪯ᵢ ℓ'` into the solver. A node the
//! site does not quantify, a monomorphic (recursive) site and a copy nested deeper than
//! [`MAX_DEPTH`] give a flow or a unification instead of a copy.
//!
//! It must never copy a generic node whose shape is still unknown (the relation waits until it
//! has one), and never give a field's pointer a shape on the generic side before the callee
//! uses it (such a field stays pending).

use super::{FieldSlot, LTypes, Node, Pol, Rel, RhoOrigin, Shape, Work, MAX_DEPTH};
use crate::constraints::views::ViewKey;
use crate::ir::ctypes::StructId;
use solver::{Constraints, RhoKind, Scope, Site};

impl LTypes<'_> {
    /// Synchronises `generic ⪯ᵢᵖ instance` at `site` (\[Inst\] of figure 7b, made lazy): when
    /// the generic node is quantified at the site, the instance gets a copy of its structure
    /// with instantiated labels; otherwise the relation is plain subtyping (\[Sub\], figure 7a)
    /// or, for contents, unification.
    pub(super) fn sync_inst(
        &mut self,
        c: &mut Constraints,
        generic: Node,
        instance: Node,
        site: Site,
        pol: Pol,
    ) {
        let (g, i) = self.containers(generic, instance);
        if g == i {
            return;
        }
        // A relation between a member and the struct around its image relates the enclosing
        // structs, which may then have more than one instance at the site: every field is paired.
        let on_demand = (g, i) == (self.root(generic), self.root(instance));
        let Some(depth) = self.copy_depth(c, g, i, site) else {
            // Not quantified at this site: its image is itself (`l⃗ ⪯ᵢ l⃗`), so the instantiation
            // is plain subtyping with the generic's own labels — the argument flows into the
            // parameter, the result out of the return (\[Sub\], figure 7a); contents, which are
            // invariant, are unified. Monomorphic (recursive) sites and deep copies are treated
            // the same way: a recursive call passing a local buffer as the parameter then does
            // not make the buffer and every caller's argument one location.
            match pol {
                Pol::Neg => self.add_rel(Rel::Flow {
                    source: i,
                    target: g,
                }),
                Pol::Pos => self.add_rel(Rel::Flow {
                    source: g,
                    target: i,
                }),
                Pol::Both => self.work.push(Work::Unify(g, i)),
            }
            return;
        };
        self.creating_depth = depth + 1;
        self.sync_structure(c, (g, i), site, pol, on_demand);
        self.creating_depth = 0;
    }

    /// How deep the copies of generic node `g` for instance `i` at `site` are, or `None` when
    /// the site does not copy `g` (it is not quantified there, the site is monomorphic, or the
    /// copies are [`MAX_DEPTH`] deep): the relation is then plain subtyping.
    pub(super) fn copy_depth(&self, c: &Constraints, g: Node, i: Node, site: Site) -> Option<u8> {
        let binder = c.sites[site].binder;
        let g_scope = self.data[g.0 as usize].scope;
        let depth = self.data[g.0 as usize]
            .depth
            .max(self.data[i.0 as usize].depth);
        let copies = binder != Scope::ROOT
            && c.scopes.within(g_scope, binder)
            && !self.monomorphic.contains(&site)
            && depth < MAX_DEPTH;
        copies.then_some(depth)
    }

    /// Field `index` of struct `sid` between generic struct node `g` and its instance `i` at
    /// `site` (\[Inst\], figure 7b, for one field of a struct, made lazy): created on both sides
    /// (lazily on the generic one, see [`LTypes::field_slot`]), its label instantiated and its
    /// content related.
    pub(super) fn inst_field(
        &mut self,
        c: &mut Constraints,
        (g, i): (Node, Node),
        sid: StructId,
        index: u32,
        site: Site,
    ) {
        self.work_done[4] += 1;
        let (scope_g, scope_i) = (self.data[g.0 as usize].scope, self.data[i.0 as usize].scope);
        let fg = self.field_slot(c, g, sid, index, scope_g, true);
        let fi = self.field_slot(c, i, sid, index, scope_i, false);
        self.emit_rho_inst(c, fg.rho, site, Pol::Both, fi.rho);
        self.add_rel(Rel::Inst {
            generic: fg.content,
            instance: fi.content,
            site,
            pol: Pol::Both,
        });
    }

    /// Two function pointers at a site: their targets flow as the polarity says. Function
    /// lists (a table of a thousand handlers) are long, so only what one side lacks is copied
    /// to it, and two lists that flow both ways are linked into one ([`LTypes::link_funs`]).
    /// Whether both were function pointers.
    fn sync_funs(&mut self, g: Node, i: Node, pol: Pol) -> bool {
        if !(matches!(self.data[g.0 as usize].shape, Shape::Fun(_))
            && matches!(self.data[i.0 as usize].shape, Shape::Fun(_)))
        {
            return false;
        }
        match pol {
            Pol::Pos => self.flow_funs(g, i),
            Pol::Neg => self.flow_funs(i, g),
            // Both ways: the two must hold the same functions, so they share one list.
            Pol::Both => {
                if let (Shape::Fun(a), Shape::Fun(b)) = (
                    &self.data[g.0 as usize].shape,
                    &self.data[i.0 as usize].shape,
                ) {
                    self.link_funs(*a, *b);
                }
            }
        }
        true
    }

    /// [`LTypes::sync_inst`] on a site that copies `g`; `on_demand` when `(g, i)` are the
    /// relation's own nodes, whose fields only `i` has get pre-images on demand
    /// ([`LTypes::inst_field_on_demand`]).
    fn sync_structure(
        &mut self,
        c: &mut Constraints,
        (g, i): (Node, Node),
        site: Site,
        pol: Pol,
        on_demand: bool,
    ) {
        self.sync_parents(g, i, site);
        if self.sync_funs(g, i, pol) {
            return;
        }
        let gs = self.data[g.0 as usize].shape.clone();
        let mut is = self.data[i.0 as usize].shape.clone();
        match (&gs, &is) {
            // An object the callee allocates without giving it a type (an allocation wrapper
            // returning `void *`) is the memory every caller's copy is: it takes the shape a
            // caller gives its copy, so the fields the callers use are created on the object
            // itself (where its races are checked), and are then synchronised as usual.
            (Shape::Var, _) if self.data[g.0 as usize].object && !matches!(is, Shape::Var) => {
                let mirrored = self.mirror(c, &is, self.data[g.0 as usize].scope);
                self.data[g.0 as usize].void_content |= self.data[i.0 as usize].void_content;
                self.set_shape(g, mirrored);
                return self.sync_structure(c, (g, i), site, pol, on_demand);
            }
            // Its copy ([Inst], figure 6) at a call whose result is still untyped (`return
            // alloc_fn(n);`, resolved after its callers were generated) is the object's memory
            // too: the shape the copy's callers give it must reach the object, or the fields they
            // use would exist only at the callers, on no object, and their races were missed.
            (Shape::Var, Shape::Var)
                if self.data[g.0 as usize].object && !self.data[i.0 as usize].object =>
            {
                self.data[i.0 as usize].object = true;
                self.resync(i);
                return;
            }
            // A generic content the callee never looks into (an uncast `void*`) stays related
            // to each caller's content; if the callee later gives it a shape, the relation is
            // synchronised again. Memory the callee stores such a pointer into is reachable from
            // an outer scope, so it is widened there and unified, not copied (`do_widen`).
            (Shape::Var, _) => return,
            (_, Shape::Var) => {
                is = self.mirror(c, &gs, self.data[i.0 as usize].scope);
                self.data[i.0 as usize].void_content |= self.data[g.0 as usize].void_content;
                self.set_shape(i, is.clone());
            }
            _ => {}
        }
        match (gs, is) {
            (Shape::Scalar, Shape::Scalar) => self.sync_bytes((g, i), site, pol),
            (Shape::Ptr { rho: rg, to: tg }, Shape::Ptr { rho: ri, to: ti }) => {
                self.emit_rho_inst(c, rg, site, pol, ri);
                self.add_rel(Rel::Inst {
                    generic: tg,
                    instance: ti,
                    site,
                    pol: Pol::Both,
                });
            }
            (
                Shape::Struct { sid, fields },
                Shape::Struct {
                    sid: si,
                    fields: fields_i,
                },
            ) if sid == si => {
                self.sync_fields(c, (g, i), sid, (&fields, &fields_i), site, on_demand);
            }
            (Shape::Union { sid, inner: ig }, Shape::Union { sid: si, inner: ii }) if sid == si => {
                self.add_rel(Rel::Inst {
                    generic: ig,
                    instance: ii,
                    site,
                    pol: Pol::Both,
                });
            }
            (Shape::Lock(lg), Shape::Lock(li)) => self.emit_lock_inst(c, lg, site, li),
            (gb @ Shape::Blob { .. }, ib @ Shape::Blob { .. }) => self.sync_blobs(c, gb, ib, site),
            (Shape::Void(ge), Shape::Void(ie)) => self.sync_views(c, (g, &ge), (i, &ie), site),
            (Shape::Blob { .. }, _) => {
                // The caller's view of conflated memory is conflated too.
                self.conflate_later(c, i);
            }
            (_, Shape::Blob { .. }) => self.conflate_later(c, g),
            // An untyped object of the callee (an allocation wrapper's `malloc`) that callers
            // use at different types: each caller's copy is an instance of the object's entry
            // for its own type, so the object holds every caller's fields while each copy keeps
            // only its own (unifying them would give every caller every other caller's type).
            (gs, is)
                if self.data[g.0 as usize].object
                    && self.data[g.0 as usize].void_content
                    && is.view_key().is_some()
                    && gs.view_key() != is.view_key() =>
            {
                let key = is.view_key().expect("checked above");
                let e = self.view_entry(c, g, key, None);
                self.add_rel(Rel::Inst {
                    generic: e,
                    instance: i,
                    site,
                    pol: Pol::Both,
                });
            }
            // A `void*` content on one side and typed memory on the other (a callee's untyped
            // parameter given an object without a cast the generator could see, or a typed
            // callee given untyped memory): the typed side is an instance of the `void*`
            // content's entry for its type, as a cast there would make it. When both sides are
            // `void*` contents later, they are related entry by entry above. Unifying the two
            // instead made the caller's typed node the callee's `void*` content itself, so that
            // an object whose typed view was also passed on as `void *` (one object given to a
            // create wrapper and to a helper taking its type) became one of its own views,
            // which conflates it, and lost the function targets of its callbacks (a missed
            // race).
            (Shape::Void(_), typed) if typed.view_key().is_some() => {
                let e = self.view_entry(c, g, typed.view_key().expect("by the guard"), None);
                self.add_rel(Rel::Inst {
                    generic: e,
                    instance: i,
                    site,
                    pol,
                });
            }
            (typed, Shape::Void(_)) if typed.view_key().is_some() => {
                let e = self.view_entry(c, i, typed.view_key().expect("by the guard"), None);
                self.add_rel(Rel::Inst {
                    generic: g,
                    instance: e,
                    site,
                    pol,
                });
            }
            // Anything else is one node, where a typed shape becomes the entry of its type.
            _ => self.work.push(Work::Unify(g, i)),
        }
    }

    /// Two characters related at `site`, one of them bytes of memory seen at other types
    /// (`NodeData::bytes_of`): the memory they are bytes of is related at the site too, so a
    /// byte a callee copies (a `char` parameter stored into a buffer, a byte returned) carries
    /// what the memory's pointers point to into the caller's copy, as the two blobs did. A side
    /// that is no memory's bytes yet becomes the bytes of a `void*` content of its own.
    fn sync_bytes(&mut self, (g, i): (Node, Node), site: Site, pol: Pol) {
        let (og, oi) = (self.bytes_of(g), self.bytes_of(i));
        if og == Node::NONE && oi == Node::NONE {
            return;
        }
        let generic = self.bytes_owner(g, og);
        let instance = self.bytes_owner(i, oi);
        self.add_rel(Rel::Inst {
            generic,
            instance,
            site,
            pol,
        });
    }

    /// The memory the character node `n` (a representative) is the bytes of: `owner`, or a new
    /// `void*` content whose `Char` entry `n` becomes.
    fn bytes_owner(&mut self, n: Node, owner: Node) -> Node {
        if owner != Node::NONE {
            return owner;
        }
        let scope = self.data[n.0 as usize].scope;
        let made = self.node(Shape::Void(vec![(ViewKey::Char, n)]), scope);
        self.data[made.0 as usize].void_content = true;
        self.data[n.0 as usize].bytes_of = made;
        self.resync(n);
        made
    }

    /// Two blobs related at `site`: their labels are instantiated, their function targets flow
    /// both ways (one list).
    fn sync_blobs(&mut self, c: &mut Constraints, gb: Shape, ib: Shape, site: Site) {
        let (
            Shape::Blob {
                rho: rg,
                lock: lg,
                funs: fg,
            },
            Shape::Blob {
                rho: ri,
                lock: li,
                funs: fi,
            },
        ) = (gb, ib)
        else {
            return;
        };
        self.emit_rho_inst(c, rg, site, Pol::Both, ri);
        self.emit_lock_inst(c, lg, site, li);
        self.link_funs(fg, fi);
    }

    /// Two `void*` contents related at `site`: entry by entry, created on both sides as lazy
    /// fields are.
    fn sync_views(
        &mut self,
        c: &mut Constraints,
        (g, ge): (Node, &[(ViewKey, Node)]),
        (i, ie): (Node, &[(ViewKey, Node)]),
        site: Site,
    ) {
        let mut keys: Vec<ViewKey> = ge.iter().chain(ie).map(|e| e.0).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let a = self.view_entry(c, g, key, None);
            let b = self.view_entry(c, i, key, None);
            self.add_rel(Rel::Inst {
                generic: a,
                instance: b,
                site,
                pol: Pol::Both,
            });
        }
    }

    fn conflate_later(&mut self, c: &mut Constraints, n: Node) {
        let scope = self.data[n.0 as usize].scope;
        let blob = self.empty_blob(c, scope);
        let blob = self.node(blob, scope);
        self.work.push(Work::Unify(n, blob));
    }

    /// The slot of field `index` of struct node `n`, created if missing. With `lazy`, a missing
    /// field is created on the generic side of an instantiation because the instance has it
    /// (figure 7b made lazy: a field the caller uses needs a generic pre-image, so that a caller
    /// reaching an object the callee allocated reaches that object's field). When the field
    /// holds a pointer, the callee has not used that pointer (it would have created the field),
    /// so its value is left *pending*: a `Var`, which instantiation does not copy, until the
    /// callee itself uses it ([`LTypes::materialise`]). This departs from copying the field's
    /// whole type at once: the pending value's own labels (the pointer's target and below) are
    /// not created, so no instantiation constraint is emitted for them; having no constraint in
    /// the callee, they could only link the instances of different sites to each other, which
    /// matched flow never does (`(ᵢ` closed by `)ⱼ`). What it saves: a caller whose structure
    /// is cyclic (a list it walks) made the callee's acyclic view of it unfold one copy per
    /// level, every pointer field a branch, until [`MAX_DEPTH`] (mt-daapd: 1.6 million nodes
    /// made at the last level alone).
    pub(super) fn field_slot(
        &mut self,
        c: &mut Constraints,
        n: Node,
        sid: StructId,
        index: u32,
        scope: Scope,
        lazy: bool,
    ) -> FieldSlot {
        let r = self.root(n);
        if let Shape::Struct { fields, .. } = &self.data[r.0 as usize].shape {
            if let Ok(k) = fields.binary_search_by_key(&index, |f| f.index) {
                return fields[k];
            }
        }
        self.new_field(c, r, sid, index, scope, lazy)
    }

    /// The fields of struct nodes `g ⪯ᵢ i` of struct `sid`, `fields` and `fields_i`
    /// (\[Inst\], figure 7b, field by field).
    fn sync_fields(
        &mut self,
        c: &mut Constraints,
        (g, i): (Node, Node),
        sid: StructId,
        (fields, fields_i): (&[FieldSlot], &[FieldSlot]),
        site: Site,
        on_demand: bool,
    ) {
        // Lazy fields are created on both sides where needed: a field the caller uses must have
        // a generic pre-image when that connects it with something, or the caller's label would
        // be cut off from the object the callee allocated (and the check, which looks at that
        // object, would miss it); see `preimages`.
        let shared = fields.iter().filter(|f| has_index(fields_i, f.index));
        let only_instance = fields_i.len() - shared.count();
        // Only the instance's fields that hold more than numbers, or that `g` wants, get a
        // pre-image: looked up from those two short lists, so that a caller's struct of many
        // counters costs nothing here, and `g` is searched only when the instance has a
        // counter it lacks.
        let mut made: Vec<u32> = (self.labelled_fields(sid).iter())
            .filter(|&&k| has_index(fields_i, k) && !has_index(fields, k))
            .copied()
            .collect();
        let wanted = match on_demand && only_instance > made.len() {
            true => self.wanted_numbers(g, sid),
            false => None,
        };
        match wanted {
            Some(wanted) => {
                made.extend(
                    (wanted.iter()).filter(|&&k| has_index(fields_i, k) && !has_index(fields, k)),
                );
                made.sort_unstable();
                made.dedup();
            }
            None if only_instance > made.len() => {
                made = (fields_i.iter().map(|f| f.index))
                    .filter(|&k| !has_index(fields, k))
                    .collect();
            }
            None => {}
        }
        if on_demand {
            if only_instance > made.len() {
                self.leave_out_preimages(g, (only_instance - made.len()) as u64);
            }
            self.preimages[0] += made.len() as u64;
        }
        let mut indices: Vec<u32> = fields.iter().map(|f| f.index).collect();
        indices.extend(made);
        indices.sort_unstable();
        for index in indices {
            self.inst_field(c, (g, i), sid, index, site);
        }
    }

    /// A fresh shape of the same constructor as `s`, for an instance in `scope`.
    fn mirror(&mut self, c: &mut Constraints, s: &Shape, scope: Scope) -> Shape {
        match s {
            Shape::Var => Shape::Var,
            Shape::Scalar => Shape::Scalar,
            Shape::Ptr { .. } => {
                let rho = self.new_rho(c, scope, RhoKind::Plain, RhoOrigin::Instance);
                let to = self.var(scope);
                Shape::Ptr { rho, to }
            }
            Shape::Struct { sid, .. } => Shape::Struct {
                sid: *sid,
                fields: Vec::new(),
            },
            Shape::Union { sid, .. } => {
                let inner = self.var(scope);
                Shape::Union { sid: *sid, inner }
            }
            Shape::Lock(_) => Shape::Lock(c.new_lock(scope)),
            Shape::Fun(_) => Shape::Fun(self.new_fun_list(Vec::new())),
            Shape::Void(_) => Shape::Void(Vec::new()),
            Shape::Blob { .. } => self.empty_blob(c, scope),
        }
    }
}

/// Whether the sorted fields `fields` have field `index`.
pub(super) fn has_index(fields: &[FieldSlot], index: u32) -> bool {
    fields.binary_search_by_key(&index, |f| f.index).is_ok()
}
