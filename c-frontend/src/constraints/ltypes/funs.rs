//! Function lists: the functions a function pointer (or the memory of a blob) may call, kept as
//! lists shared by every node that must hold the same functions.
//!
//! Two function pointers hold the same functions when their lists flow both ways: the content
//! of a pointer parameter and each caller's content at an instantiation (invariant reference
//! contents, figure 7b with `Pol::Both`), two nodes unified, and the two nodes of one blob
//! ([`LTypes::share_blob_funs`]). Such lists are *linked* into one ([`LTypes::link_funs`]), a
//! union-find of lists beside the union-find of nodes, instead of copied into each other: a
//! registration function taking `struct ops *` from thousands of callers gave every caller's
//! table all the callers' functions, a copy per caller of a list as long as the program
//! (quadratic in memory and in synchronisations). Where lists flow one way (an argument into a
//! parameter, a result out), only what was added since the last flow is moved
//! ([`LTypes::flow_funs`]).
//!
//! A list only ever grows. When it does, the relations that may carry its functions out of its
//! nodes (its *outs*, [`LTypes::moves_funs_out`]) are synchronised again, and only those, from
//! the work list ([`Work::FunsGrew`]): a list grows while two nodes are being unified, when
//! their shapes are not yet the merged one, and only then can an out that now stays within one
//! list be told and dropped. The outs are kept up to date as nodes and relations change, never
//! found again from the list's nodes: a list held by thousands of nodes, one of which changed,
//! was searched whole at its next growth. They may hold more than the relations that carry
//! functions out (one that stopped doing so, or a duplicate), which is only more
//! synchronisation. This module must never shrink a list or move functions against a
//! relation's direction.

use super::{LTypes, Node, Pol, Rel, RelState, Shape, Work};
use crate::ir::FuncId;

/// A list of function targets, shared by the nodes that must hold the same functions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunList(u32);

/// One list of the union-find: at a root, its functions and who holds them.
#[derive(Clone, Debug, Default)]
pub(super) struct FunListData {
    /// The union-find parent (itself for a root).
    parent: u32,
    /// The functions, sorted.
    funs: Vec<FuncId>,
    /// The same functions in the order they were added, so that a one-way flow out of this
    /// list moves only what was added since it last flowed ([`LTypes::flow_funs`]).
    order: Vec<FuncId>,
    /// The relations of the nodes holding this list that may carry the functions out
    /// ([`LTypes::moves_funs_out`]).
    outs: Vec<u32>,
    /// The outs from this index on must be synchronised again: the list grew since they last
    /// were (all of them), or a list that grew was linked into this one (its outs, appended).
    dirty: usize,
    /// Whether a [`Work::FunsGrew`] of this list is waiting in the work list.
    grew_queued: bool,
}

impl LTypes<'_> {
    /// A new list holding `funs`, held by no node yet.
    pub(super) fn new_fun_list(&mut self, mut funs: Vec<FuncId>) -> FunList {
        funs.sort_unstable();
        funs.dedup();
        let id = self.fun_lists.len() as u32;
        self.fun_lists.push(FunListData {
            parent: id,
            order: funs.clone(),
            funs,
            outs: Vec::new(),
            dirty: 0,
            grew_queued: false,
        });
        FunList(id)
    }

    /// The root of list `l`, halving the path on the way.
    pub(super) fn list_root(&mut self, l: FunList) -> FunList {
        let mut x = l.0;
        loop {
            let p = self.fun_lists[x as usize].parent;
            if p == x {
                return FunList(x);
            }
            let gp = self.fun_lists[p as usize].parent;
            self.fun_lists[x as usize].parent = gp;
            x = gp;
        }
    }

    /// The (root) list of node `n`, if it is a function pointer or a blob.
    pub(super) fn node_list(&mut self, n: Node) -> Option<FunList> {
        let r = self.root(n);
        let l = match self.data[r.0 as usize].shape {
            Shape::Fun(l) | Shape::Blob { funs: l, .. } => l,
            _ => return None,
        };
        Some(self.list_root(l))
    }

    /// The functions of list `l`, sorted.
    pub(super) fn list_funs(&mut self, l: FunList) -> &[FuncId] {
        let l = self.list_root(l);
        &self.fun_lists[l.0 as usize].funs
    }

    /// Node `n` (a representative) now has list `l` in its shape: its relations that may carry
    /// the functions out are outs of `l`.
    pub(super) fn add_member(&mut self, l: FunList, n: Node) {
        let rels = self.data[n.0 as usize].rels.clone();
        self.extend_outs(l, n, &rels);
    }

    /// Adds those of relations `rels` of `n` (a representative holding `l`) that may carry
    /// functions out of it to the outs of `l`.
    pub(super) fn extend_outs(&mut self, l: FunList, n: Node, rels: &[u32]) {
        let l = self.list_root(l);
        self.work_done[5] += rels.len() as u64;
        let more: Vec<u32> = rels
            .iter()
            .copied()
            .filter(|&id| self.moves_funs_out(n, id))
            .collect();
        self.fun_lists[l.0 as usize].outs.extend(more);
    }

    /// Makes lists `a` and `b` one: their nodes must hold the same functions. The longer list
    /// stays the root and takes the other's functions and outs; each side that gains a function
    /// has its outs synchronised again. The other's outs are appended, so that what must be
    /// synchronised stays one suffix (`dirty`) without moving the longer list's outs.
    pub(super) fn link_funs(&mut self, a: FunList, b: FunList) -> FunList {
        let (a, b) = (self.list_root(a), self.list_root(b));
        if a == b {
            return a;
        }
        let weight = |t: &Self, l: FunList| {
            let d = &t.fun_lists[l.0 as usize];
            d.funs.len() + d.outs.len()
        };
        let (keep, gone) = if weight(self, a) >= weight(self, b) {
            (a, b)
        } else {
            (b, a)
        };
        let gone_data = std::mem::take(&mut self.fun_lists[gone.0 as usize]);
        self.fun_lists[gone.0 as usize].parent = keep.0;
        let kept = &mut self.fun_lists[keep.0 as usize];
        let added = merge_sorted(&mut kept.funs, &gone_data.funs);
        kept.order.extend(&added);
        let gone_gains = kept.funs.len() > gone_data.funs.len();
        let kept_dirty = if added.is_empty() { kept.dirty } else { 0 };
        let gone_dirty = if gone_gains { 0 } else { gone_data.dirty };
        let kept_len = kept.outs.len();
        kept.outs.extend(gone_data.outs);
        kept.dirty = kept_dirty.min(kept_len + gone_dirty);
        if kept.dirty < kept.outs.len() {
            self.queue_grew(keep);
        }
        keep
    }

    fn queue_grew(&mut self, l: FunList) {
        let d = &mut self.fun_lists[l.0 as usize];
        if !d.grew_queued {
            d.grew_queued = true;
            self.work.push(Work::FunsGrew(l));
        }
    }

    /// [`Work::FunsGrew`]: synchronises the outs of list `l` that must be, once the nodes hold
    /// their merged shapes.
    pub(super) fn do_funs_grew(&mut self, l: FunList) {
        self.fun_lists[l.0 as usize].grew_queued = false;
        let l = self.list_root(l);
        let d = &mut self.fun_lists[l.0 as usize];
        let mut outs = std::mem::take(&mut d.outs);
        let mut dirty = outs.split_off(d.dirty.min(outs.len()));
        self.sync_outs(&mut dirty);
        outs.extend(dirty);
        let d = &mut self.fun_lists[l.0 as usize];
        d.dirty = outs.len();
        d.outs = outs;
    }

    /// Synchronises each of `outs` again, dropping those whose two nodes now share one list:
    /// they have nothing to carry, and a list shared by a generic node and its thousand
    /// instances would otherwise synchronise all of them at each growth. Such a relation stays
    /// within one list for good (lists are only linked, and a node that stops holding a list
    /// puts the relations around it back among the outs, [`LTypes::outs_around_former_fun`]).
    fn sync_outs(&mut self, outs: &mut Vec<u32>) {
        self.work_done[5] += outs.len() as u64;
        outs.retain(|&id| {
            let (a, b) = self.rels[id as usize].nodes();
            let within = match (self.node_list(a), self.node_list(b)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            };
            !within
        });
        for &id in outs.iter() {
            self.push_sync(id);
        }
    }

    /// Makes `rels` outs of the lists of the nodes they relate, when one of the nodes stops
    /// being a function pointer: an instantiation that only brought functions into the other
    /// may now carry its functions out ([`LTypes::moves_funs_out`]). Each is added whether or
    /// not it does: the node may still be taking its new shape, and an out too many is only a
    /// synchronisation more.
    pub(super) fn outs_around_former_fun(&mut self, rels: &[u32]) {
        for &id in rels {
            let (a, b) = self.rels[id as usize].nodes();
            for n in [a, b] {
                if let Some(l) = self.node_list(n) {
                    self.fun_lists[l.0 as usize].outs.push(id);
                }
            }
        }
    }

    /// Adds the functions of `from`'s list to `to`'s (both function pointers). Only what was
    /// added to `from` since its list last flowed into `to` is moved: a parameter taking a
    /// different job at each of thousands of call sites grows one function at a time, and
    /// moving its whole list at each growth made the flows out of it quadratic. Lists only
    /// grow, so what moved before is still in `to`.
    pub(super) fn flow_funs(&mut self, from: Node, to: Node) {
        let (Some(from), Some(to)) = (self.node_list(from), self.node_list(to)) else {
            return;
        };
        if from == to {
            return;
        }
        let order = &self.fun_lists[from.0 as usize].order;
        let len = order.len() as u32;
        let start = self.funs_moved.get(&(from, to)).copied().unwrap_or(0);
        if start == len {
            return;
        }
        let mut more = order[start as usize..].to_vec();
        more.sort_unstable();
        self.funs_moved.insert((from, to), len);
        self.add_funs(to, &more);
    }

    /// Adds the functions `more` (sorted) to list `l`. The list stays sorted and is merged, not
    /// sorted again: a table of thousands of handlers grows one function at a time. When it
    /// grows, only its outs are synchronised again: not the relations whose values flow into
    /// its nodes, which brought its functions and gain nothing from them. A function taking a
    /// callback from a thousand call sites is then synchronised once per site, not once per
    /// site per callback.
    pub(super) fn add_funs(&mut self, l: FunList, more: &[FuncId]) {
        let l = self.list_root(l);
        let d = &mut self.fun_lists[l.0 as usize];
        let list = &mut d.funs;
        if more.iter().all(|f| list.binary_search(f).is_ok()) {
            return;
        }
        let added = if more.len() * 8 < list.len() {
            // A few functions into a long list: inserted in place.
            let mut added = Vec::new();
            for &f in more {
                if let Err(k) = list.binary_search(&f) {
                    list.insert(k, f);
                    added.push(f);
                }
            }
            added
        } else {
            merge_sorted(list, more)
        };
        d.order.extend(added);
        d.dirty = 0;
        self.queue_grew(l);
    }

    /// Whether relation `id` of representative `r` may carry `r`'s functions out of it, so
    /// that it must be synchronised again when `r`'s list grows. Not those that bring their
    /// functions into `r`: flows into it, and instantiations of a parameter (`r` generic,
    /// contravariant) or of a result (`r` the instance, covariant) between two function
    /// pointers, which move lists one way only (`sync_funs`); a blob's list goes both ways.
    /// Nor a relation that is never synchronised again ([`RelState`]).
    ///
    /// Nor an instantiation of `r` whose generic node has no shape yet (a callee's `void*` it
    /// never casts): it carries nothing until the generic takes one (`sync_structure`), and
    /// then it becomes an out again ([`LTypes::generic_typed`]). An interpreter's state
    /// reaches a list of every C function it registers through the `void*` of its values, and
    /// the state goes to nearly every function: each registration synchronised again the
    /// thousands of instantiations of callees that never look there (quadratic).
    pub(super) fn moves_funs_out(&mut self, r: Node, id: u32) -> bool {
        if self.rel_state[id as usize] != RelState::Live {
            return false;
        }
        let funs = |t: &mut Self, n: Node| {
            let n = t.root(n);
            matches!(t.data[n.0 as usize].shape, Shape::Fun(_))
        };
        let rel = self.rels[id as usize];
        let into_r = match rel {
            Rel::Inst { generic, .. } if self.untyped_generic(generic, r) => true,
            Rel::Flow { target, .. } => self.root(target) == r,
            Rel::Inst {
                generic,
                instance,
                pol: Pol::Neg,
                ..
            } => self.root(generic) == r && funs(self, r) && funs(self, instance),
            Rel::Inst {
                generic,
                instance,
                pol: Pol::Pos,
                ..
            } => self.root(instance) == r && funs(self, r) && funs(self, generic),
            Rel::Inst { .. } | Rel::MayBe { .. } => false,
        };
        !into_r
    }

    /// Whether `generic`, the generic node of an instantiation of representative `r`, is
    /// another node with no shape yet.
    fn untyped_generic(&mut self, generic: Node, r: Node) -> bool {
        let g = self.root(generic);
        g != r && matches!(self.data[g.0 as usize].shape, Shape::Var)
    }

    /// Node `r`, of relations `rels`, took a shape: its instantiations of the nodes that hold a
    /// list may now carry their functions, and become outs of those lists
    /// ([`LTypes::moves_funs_out`]). `r`'s own list counts its relations already.
    pub(super) fn generic_typed(&mut self, r: Node, rels: &[u32]) {
        for &id in rels {
            let Rel::Inst {
                generic, instance, ..
            } = self.rels[id as usize]
            else {
                continue;
            };
            let i = self.root(instance);
            if self.root(generic) != r || i == r {
                continue;
            }
            if let Some(l) = self.node_list(i) {
                self.extend_outs(l, i, &[id]);
            }
        }
    }

    /// The number of lists that are roots, for the developer's statistics.
    pub(super) fn root_lists(&self) -> usize {
        self.fun_lists
            .iter()
            .enumerate()
            .filter(|(k, d)| d.parent as usize == *k)
            .count()
    }
}

/// Merges the sorted functions `more` into the sorted list `list`, keeping it sorted and free of
/// duplicates, and returns the functions that were not in it, in order.
fn merge_sorted(list: &mut Vec<FuncId>, more: &[FuncId]) -> Vec<FuncId> {
    let mut merged = Vec::with_capacity(list.len() + more.len());
    let mut added = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < list.len() || j < more.len() {
        let next = match (list.get(i), more.get(j)) {
            (Some(&a), Some(&b)) if a <= b => {
                i += 1;
                if a == b {
                    j += 1;
                }
                a
            }
            (Some(_), Some(&b)) | (None, Some(&b)) => {
                j += 1;
                if merged.last() != Some(&b) {
                    added.push(b);
                }
                b
            }
            (Some(&a), None) => {
                i += 1;
                a
            }
            (None, None) => unreachable!("the loop runs while one list has more"),
        };
        if merged.last() != Some(&next) {
            merged.push(next);
        }
    }
    *list = merged;
    added
}
