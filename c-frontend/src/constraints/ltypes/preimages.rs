//! Pre-images of fields on the generic side of an instantiation, made on demand.
//!
//! Lazy fields (paper §3.4) make a field where it is used. An instantiation `g ⪯ᵢ i` of two
//! structs pairs their fields (figure 7b), and a field only the caller's instance `i` has used
//! to get a pre-image on `g`. That gave each callee every field its callers use: a connection
//! struct with a counter per command, handed down every call, made one label per counter per
//! function and per call site, and the matched flow over them grew faster than the cube of the
//! commands.
//!
//! A pre-image is needed only when it connects `i`'s field with something: the callee's own use
//! (then `g` has the field already), an object the callee allocates, memory read whole, or
//! another node related to `g` in the callee's scope. The relations of `g` with its instances at
//! *other* sites never need it: a path through the pre-image from one site's instance to
//! another's enters at `(ᵢ` and leaves at `)ⱼ`, which matched flow never takes. A path that
//! leaves `g` for its instance and comes back into another generic node of the callee with the
//! same instance (`)ᵢ … (ᵢ`) starts at the pre-image, which nothing else reaches.
//!
//! Only fields that hold numbers are left out. Their pre-image is a label and nothing else, and
//! the argument above is about labels. A field with a pointer, a lock or a function carries
//! structure the instantiation also shares: function lists are linked, not matched, so a
//! pre-image joins the lists of every site's instance; and the content of a pointer field
//! is a node whose relations make one site's instances of two aliased generic nodes one node
//! ([`LTypes::one_instance_per_site`]), which is how the aliasing a callee makes (a list it
//! links) reaches its callers. Leaving those out lost accesses on the real programs.
//!
//! The decision ([`LTypes::needs_preimage`]) reads the state of the moment, which later
//! generation can change (a flag set on an enclosing struct, a field a deeper callee gains): the
//! nodes that left out a pre-image are synchronised again once generation is over, until nothing
//! changes ([`LTypes::settle_preimages`]), so that what is left out is decided on the final
//! table. A question asked during generation that reads every field of a node marks it first
//! ([`LTypes::mark_inspected`]).
//!
//! Cost. A caller's struct of many counters is the instance of many callees' views that each
//! name a few. Pairing it with a view costs that view's fields and the few fields it wants
//! ([`LTypes::wanted_numbers`], looked up, not searched for each counter), and a counter the
//! caller gains later skips a relation that left one out already (`LTypes::parked`): the
//! settling pass decides it on the final table. Without both, each counter was offered to each
//! view, quadratic in the commands of a server that counts one per command.
//!
//! It must never leave out a pre-image that a matched path, a whole-object read or an object's
//! check could reach.

use super::instances::has_index;
use super::{LTypes, Node, Rel, RelState, Shape};
use crate::ir::ctypes::StructId;
use solver::{ids::Idx, Constraints, Site};

/// What asks a generic node for the pre-images of fields its instances have, besides its own
/// memory ([`LTypes::demand_of`]).
#[derive(Clone, Debug)]
pub(super) enum Demand {
    /// A relation in its own scope (a flow, a possible external object, itself): every field.
    Always,
    /// The generic nodes it is an instance of: a field one of them has, or needs.
    Below(Vec<Node>),
}

/// How far [`LTypes::needs_preimage`] follows enclosing structs and generic nodes below before it
/// keeps the pre-image anyway.
const SEARCH_LIMIT: usize = 16;

impl LTypes<'_> {
    /// Field `index` of struct `sid` between generic node `g` and its instance `i` at `site`
    /// (\[Inst\], figure 7b, for one field, [`LTypes::inst_field`]), unless only the instance
    /// has it and `g` needs no pre-image of it ([`LTypes::needs_preimage`]): then `g` is noted
    /// for [`LTypes::settle_preimages`] and the answer is false.
    pub(super) fn inst_field_on_demand(
        &mut self,
        c: &mut Constraints,
        (g, i): (Node, Node),
        sid: StructId,
        index: u32,
        site: Site,
    ) -> bool {
        let g = self.root(g);
        if !self.has_field(g, index) {
            if !self.needs_preimage(g, sid, index) {
                self.leave_out_preimages(g, 1);
                return false;
            }
            self.preimages[0] += 1;
        }
        self.inst_field(c, (g, i), sid, index, site);
        true
    }

    /// Notes that `count` pre-images were left out of generic node `g` (a representative), which
    /// [`LTypes::settle_preimages`] synchronises again.
    pub(super) fn leave_out_preimages(&mut self, g: Node, count: u64) {
        self.preimages[1] += count;
        if !self.data[g.0 as usize].lazy {
            self.data[g.0 as usize].lazy = true;
            self.lazy_nodes.push(g);
        }
    }

    /// Whether struct node `n` has field `index`.
    fn has_field(&self, n: Node, index: u32) -> bool {
        match &self.data[n.0 as usize].shape {
            Shape::Struct { fields, .. } => has_index(fields, index),
            _ => false,
        }
    }

    /// Whether generic struct node `g` needs a pre-image of field `index`, which an instance of
    /// it has: when the field holds anything but numbers, or when it is among
    /// [`LTypes::wanted_numbers`].
    pub(super) fn needs_preimage(&mut self, g: Node, sid: StructId, index: u32) -> bool {
        !self.holds_numbers(sid, index)
            || self
                .wanted_numbers(g, sid)
                .is_none_or(|wanted| wanted.binary_search(&index).is_ok())
    }

    /// The fields holding numbers that generic struct node `g` (of struct `sid`) needs a
    /// pre-image of when an instance has them, in increasing order, or `None` for every field:
    /// every field when its memory is kept whole ([`LTypes::keeps_every_field`]) or when it is
    /// related to anything in its own scope other than its instances (a flow, a possible
    /// external object, itself); and the fields a generic node below has (`g` is its instance)
    /// or needs in turn — the pre-image then connects the caller's field with that node's.
    /// Usually empty: nothing but instances at sites asks a callee's view.
    pub(super) fn wanted_numbers(&mut self, g: Node, sid: StructId) -> Option<Vec<u32>> {
        let mut wanted = Vec::new();
        let mut stack = vec![self.root(g)];
        let mut seen = Vec::new();
        while let Some(n) = stack.pop() {
            if seen.contains(&n) {
                continue;
            }
            seen.push(n);
            if seen.len() > SEARCH_LIMIT || self.keeps_every_field(n) {
                return None;
            }
            let below = match self.demand_of(n) {
                Demand::Always => return None,
                Demand::Below(below) => below.clone(),
            };
            for h in below {
                let h = self.root(h);
                match &self.data[h.0 as usize].shape {
                    Shape::Struct { sid: s, fields } if *s == sid => {
                        wanted.extend(fields.iter().map(|f| f.index));
                        stack.push(h);
                    }
                    _ => return None,
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        Some(wanted)
    }

    /// Whether field `index` of struct `sid` holds numbers only ([`TypeTable::only_numbers`]),
    /// read from the struct's list of other fields, made once.
    ///
    /// [`TypeTable::only_numbers`]: crate::ir::ctypes::TypeTable::only_numbers
    pub(super) fn holds_numbers(&mut self, sid: StructId, index: u32) -> bool {
        (index as usize) < self.types.structs[sid].fields.len()
            && self.labelled_fields(sid).binary_search(&index).is_err()
    }

    /// The indices of the fields of struct `sid` that hold more than numbers (a pointer, a lock,
    /// a function, an incomplete struct), in increasing order.
    pub(super) fn labelled_fields(&mut self, sid: StructId) -> &[u32] {
        let k = sid.index();
        if self.labelled.len() <= k {
            self.labelled.resize(k + 1, None);
        }
        if self.labelled[k].is_none() {
            let types = self.types;
            let fields: Vec<u32> = (0..types.structs[sid].fields.len() as u32)
                .filter(|&f| !types.only_numbers(types.structs[sid].fields[f as usize].ty))
                .collect();
            self.labelled[k] = Some(fields.into());
        }
        self.labelled[k].as_deref().unwrap_or_default()
    }

    /// What asks node `n` (a representative) for pre-images through its relations. The relations
    /// read are remembered, and only those added since are read again: a node with thousands of
    /// call sites is asked for each field each caller uses, and gains its relations one by one
    /// between the questions, so reading all of them each time was quadratic or worse. A
    /// representative's list only grows at its end (a unification appends the absorbed side's
    /// relations, rewritten); a relation read earlier that died since only makes the answer
    /// more cautious.
    fn demand_of(&mut self, n: Node) -> &Demand {
        let len = self.data[n.0 as usize].rels.len();
        if matches!(self.demand.get(&n), Some((read, _)) if *read == len) {
            return &self.demand[&n].1;
        }
        let (from, mut demand) = match self.demand.remove(&n) {
            Some((read, demand)) if read < len => (read, demand),
            _ => (0, Demand::Below(Vec::new())),
        };
        for k in from..len {
            if matches!(demand, Demand::Always) {
                break;
            }
            let id = self.data[n.0 as usize].rels[k];
            match self.rel_state[id as usize] {
                RelState::Dead => continue,
                RelState::SelfInst => {
                    demand = Demand::Always;
                    continue;
                }
                RelState::Live => {}
            }
            let (generic, instance) = match self.rels[id as usize] {
                Rel::Inst {
                    generic, instance, ..
                } => (self.root(generic), self.root(instance)),
                Rel::Flow { .. } | Rel::MayBe { .. } => {
                    demand = Demand::Always;
                    continue;
                }
            };
            if generic == n && instance != n {
                // `n`'s instance at a site: only ever connected to others through `(ᵢ … )ⱼ`.
                continue;
            }
            if let Demand::Below(below) = &mut demand {
                if !below.contains(&generic) {
                    below.push(generic);
                }
            }
        }
        &self.demand.entry(n).or_insert((len, demand)).1
    }

    /// Whether every field any instance of node `n` has needs a pre-image on it: `n` or a struct
    /// enclosing it is an object (checked whole), external memory, `void*` content or memory
    /// read whole, is a union's member or a `void*` entry (whose enclosing memory is not
    /// recorded), or was stepped back to from a member (`container_of`).
    fn keeps_every_field(&mut self, n: Node) -> bool {
        let mut stack = vec![n];
        let mut visited = 0;
        while let Some(x) = stack.pop() {
            visited += 1;
            if visited > SEARCH_LIMIT {
                return true;
            }
            let x = self.root(x);
            let d = &self.data[x.0 as usize];
            if d.object || d.external || d.void_content || d.inspected || d.held {
                return true;
            }
            for p in d.parents.iter() {
                if p.2 == u32::MAX {
                    return true;
                }
                stack.push(p.0);
            }
        }
        false
    }

    /// Notes that something reads every field of the memory `n` describes (and of the memory
    /// inside it) from now on: the pre-images its synchronisations left out are made now.
    pub fn mark_inspected(&mut self, c: &mut Constraints, n: Node) {
        let mut again = Vec::new();
        for r in self.contents_below(n) {
            let d = &mut self.data[r.0 as usize];
            if !d.inspected {
                d.inspected = true;
                if d.lazy {
                    again.push(r);
                }
            }
        }
        if again.is_empty() {
            return;
        }
        for r in again {
            self.resync(r);
        }
        self.run(c);
    }

    /// Marks the members of a union node and the entries of a `void*` content node as held
    /// (see `NodeData::held`).
    pub(super) fn note_held(&mut self, r: Node) {
        let inside: Vec<Node> = match &self.data[r.0 as usize].shape {
            Shape::Union { inner, .. } => vec![*inner],
            Shape::Void(entries) => entries.iter().map(|e| e.1).collect(),
            _ => return,
        };
        for n in inside {
            let n = self.root(n);
            self.data[n.0 as usize].held = true;
        }
    }

    /// Once generation is over: synchronises again every node that left out a pre-image, so that
    /// each is decided on the final table, until no synchronisation makes a new one. Whether it
    /// made any (which may give calls through pointers new targets).
    pub fn settle_preimages(&mut self, c: &mut Constraints) -> bool {
        let before = self.preimages[0];
        loop {
            let made = self.preimages[0];
            let mut nodes: Vec<Node> = std::mem::take(&mut self.lazy_nodes)
                .into_iter()
                .map(|n| self.root(n))
                .collect();
            nodes.sort();
            nodes.dedup();
            for &n in &nodes {
                self.data[n.0 as usize].lazy = false;
            }
            self.demand.clear();
            for n in nodes {
                self.resync(n);
            }
            self.run(c);
            if self.preimages[0] == made {
                return self.preimages[0] != before;
            }
        }
    }
}
