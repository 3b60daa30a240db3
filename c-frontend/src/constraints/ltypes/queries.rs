//! Read-only questions about the table: the functions a function-pointer value may call, and
//! the location labels, lock labels and function pointers stored inside a content without
//! following pointers, for the generator's accesses, lock sets and indirect calls.
//!
//! Nothing here changes a shape, adds a relation or runs the work list; the only write is the
//! path halving of the union-find when a representative is looked up.

use rustc_hash::FxHashSet;

use super::{LTypes, Node, Shape};
use crate::ir::FuncId;
use solver::{Lock, Rho};

impl LTypes<'_> {
    /// The functions a function-pointer value may call.
    pub fn targets(&mut self, n: Node) -> Vec<FuncId> {
        match self.node_list(n) {
            Some(l) => self.list_funs(l).to_vec(),
            None => Vec::new(),
        }
    }

    /// The memory a content node describes, without following pointers: the node and, for
    /// structs, unions and `void*` contents, the nodes inside it (recursively), as
    /// representatives, each once.
    pub(super) fn contents_below(&mut self, n: Node) -> Vec<Node> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        let mut seen = FxHashSet::default();
        while let Some(x) = stack.pop() {
            let r = self.root(x);
            if !seen.insert(r) {
                continue;
            }
            out.push(r);
            match &self.data[r.0 as usize].shape {
                Shape::Struct { fields, .. } => stack.extend(fields.iter().map(|f| f.content)),
                Shape::Union { inner, .. } => stack.push(*inner),
                Shape::Void(entries) => stack.extend(entries.iter().map(|e| e.1)),
                _ => {}
            }
        }
        out
    }

    /// Every location label of the memory a content node describes, without following pointers:
    /// the fields of structs (recursively), or none for scalars and pointers. Used to expand an
    /// access to a whole struct into accesses of its fields.
    pub fn field_labels(&mut self, n: Node) -> Vec<Rho> {
        let mut out = Vec::new();
        for r in self.contents_below(n) {
            match &self.data[r.0 as usize].shape {
                Shape::Struct { fields, .. } => out.extend(fields.iter().map(|f| f.rho)),
                Shape::Blob { rho, .. } => out.push(*rho),
                _ => {}
            }
        }
        out
    }

    /// Pairs `(ρ, β)` where location `ρ` — the object `rho` itself or one of its fields, at any
    /// depth — holds conflated memory labelled `β`. A blob's locations include the memory's own
    /// start, which an access through a character pointer (the usual cause of the conflation)
    /// touches under the object's label rather than the blob's: the two must be one location.
    pub fn blob_ties(&mut self, rho: Rho, content: Node) -> Vec<(Rho, Rho)> {
        let mut out = Vec::new();
        let mut stack = vec![(rho, content)];
        let mut seen = FxHashSet::default();
        while let Some((at, x)) = stack.pop() {
            let r = self.root(x);
            if !seen.insert((at, r)) {
                continue;
            }
            if self.byte_viewed(r) {
                // Memory seen both as bytes and at other types ([`LTypes::settle_byte_views`]):
                // a byte access touches the location `at` itself, the other views' accesses
                // their fields, and the two must be one location, as a blob's were. Every label
                // below, a blob's included, is tied to `at` here, so nothing below is walked.
                let inside = self.field_labels(r);
                out.extend(inside.into_iter().filter(|&l| l != at).map(|l| (at, l)));
                continue;
            }
            match &self.data[r.0 as usize].shape {
                Shape::Blob { rho: b, .. } => out.push((at, *b)),
                Shape::Struct { fields, .. } => {
                    stack.extend(fields.iter().map(|f| (f.rho, f.content)));
                }
                Shape::Union { inner, .. } => stack.push((at, *inner)),
                Shape::Void(entries) => stack.extend(entries.iter().map(|e| (at, e.1))),
                _ => {}
            }
        }
        out
    }

    /// The lock labels stored in the memory a content node describes (not following pointers).
    pub fn locks_inside(&mut self, n: Node) -> Vec<Lock> {
        let mut out = Vec::new();
        for r in self.contents_below(n) {
            match &self.data[r.0 as usize].shape {
                Shape::Lock(l) => out.push(*l),
                Shape::Blob { lock, .. } => out.push(*lock),
                _ => {}
            }
        }
        out
    }

    /// The function pointers stored in a content (not following pointers), e.g. the handler in a
    /// `struct sigaction`.
    pub fn funs_inside(&mut self, n: Node) -> Vec<FuncId> {
        let mut out = Vec::new();
        for r in self.contents_below(n) {
            if let Some(l) = self.node_list(r) {
                out.extend_from_slice(self.list_funs(l));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The representative of each node, for callers keeping per-node maps.
    pub fn representative(&mut self, n: Node) -> Node {
        self.root(n)
    }

    /// Count of nodes (for statistics).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}
