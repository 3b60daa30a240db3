//! The versions of the global pointers `main` stores to before it starts any thread
//! ([`crate::analyses::startup_stores`]): each startup store's value flows into a version node of
//! its own instead of the global's content, and into the content only when the version escapes;
//! each startup read of the global is typed by the versions that reach it. Flow constraints only
//! (the [Assign] rule of figure 5, with the global's one content split by store, as an SSA form
//! would split it); the read and write accesses of the global itself are unchanged.
//!
//! It never decides which stores escape: the analysis does, and the callbacks of unknown code,
//! known only once calls through pointers are resolved, make every version of a global they may
//! touch escape ([`Gen::startup_callbacks`]).

use super::ltypes::Node;
use super::{Frame, Gen};
use crate::analyses::startup_stores::VersionId;
use crate::ir::{Base, FuncId, Lval, VarId};

impl Gen<'_> {
    /// The global `lv` names alone, when `frame` is `main`'s own (not an inlined stub's) and
    /// the global has versions.
    fn versioned_global(&self, frame: &Frame, lv: &Lval) -> Option<VarId> {
        if self.analysed.startup.is_empty() || frame.func != self.main || frame.inline.is_some() {
            return None;
        }
        match (&lv.base, lv.proj.is_empty()) {
            (Base::Var(v), true) => Some(*v),
            _ => None,
        }
    }

    /// The node holding version `x` of global `v`, made at its first use.
    fn version_node(&mut self, x: VersionId, v: VarId) -> Node {
        if let Some(&(_, n)) = self.version_nodes.get(&x) {
            return n;
        }
        let ty = self.program.vars[v].ty;
        let n = self
            .ltypes
            .of_type(&mut self.constraints, ty, solver::Scope::ROOT);
        self.version_nodes.insert(x, (v, n));
        n
    }

    /// The value a read of `lv`, whose content is `content`, yields: at a startup read of a
    /// versioned global, a node the versions reaching it flow into (and the global's content,
    /// when what it held before `main`'s stores may reach it too).
    pub(super) fn versioned_read(&mut self, frame: &Frame, lv: &Lval, content: Node) -> Node {
        let Some(v) = self.versioned_global(frame, lv) else {
            return content;
        };
        let Some(versions) = self
            .cur_point
            .and_then(|at| self.analysed.startup.read_at(at, v))
            .cloned()
        else {
            return content;
        };
        let ty = self.program.vars[v].ty;
        let read = self.ltypes.of_type(&mut self.constraints, ty, frame.scope);
        for x in versions.stores {
            let n = self.version_node(x, v);
            self.ltypes.flow(&mut self.constraints, n, read);
        }
        if versions.previous {
            self.ltypes.flow(&mut self.constraints, content, read);
        }
        self.version_reads.push((v, read));
        read
    }

    /// Where a value stored into `dst`, whose content is `content`, flows: at a startup store of
    /// a versioned global, its version's node (which flows into the content when it escapes).
    pub(super) fn versioned_store(&mut self, frame: &Frame, dst: &Lval, content: Node) -> Node {
        let Some(v) = self.versioned_global(frame, dst) else {
            return content;
        };
        let Some(store) = self
            .cur_point
            .and_then(|at| self.analysed.startup.store_at(at))
            .filter(|s| s.var == v)
        else {
            return content;
        };
        let n = self.version_node(store.version, v);
        if store.escapes {
            self.ltypes.flow(&mut self.constraints, n, content);
        }
        n
    }

    /// Makes every version of each global that one of `callbacks` (functions code locksmith
    /// cannot see may run at any time from the start of `main`) may read, store to, or start a
    /// thread that does, escape: the versions flow into the global's content, and the content
    /// into every startup read. Whether anything changed.
    pub(super) fn startup_callbacks(&mut self, callbacks: &[FuncId]) -> bool {
        let mut changed = false;
        for &f in callbacks {
            for v in self.analysed.startup.affected_by(f) {
                if !self.unversioned.insert(v) {
                    continue;
                }
                changed = true;
                let Some((_, content)) = self.var_rho[v] else {
                    continue;
                };
                for n in nodes_of(self.version_nodes.values(), v) {
                    self.ltypes.flow(&mut self.constraints, n, content);
                }
                for r in nodes_of(self.version_reads.iter(), v) {
                    self.ltypes.flow(&mut self.constraints, content, r);
                }
            }
        }
        changed
    }
}

/// The nodes of global `v` among `(global, node)` pairs, in their order.
fn nodes_of<'a>(pairs: impl Iterator<Item = &'a (VarId, Node)>, v: VarId) -> Vec<Node> {
    pairs.filter(|(g, _)| *g == v).map(|&(_, n)| n).collect()
}
