//! Locations private to one run of a function (the paper's \[Down\] and Down-Fork, §2.3 and
//! §3.2): where each location's accesses are checked.
//!
//! A location label created in a function's scope — a local whose address is taken, memory
//! allocated there — stands for a new location at every run of the function. If the label never
//! *escapes* the function, every access to one of those locations comes from the same run: from
//! the function itself and its callees (by the thread running it), or from threads it forks and
//! hands the location to. Such a label is checked at its *home* function, where its facts
//! arrive with their thread relative to that run, instead of at `main`, where the runs of a
//! function called by many threads would look like one location accessed by all of them.
//!
//! A label escapes when it has an image at some instantiation site (it flows out through a
//! result, a parameter's contents or a global), when it is connected by flow or summary edges to
//! a label of another scope (a global, conflated memory, or a function's label unified with a
//! caller's), or when it is connected within its scope to a label that escapes. Labels of
//! existential packages escape. Everything at the root scope is checked at `main`.

use super::{FnId, ThreadProgram};
use crate::cfl::FlowGraph;
use crate::constraints::{Constraints, Rho};
use crate::ids::IndexVec;
use crate::scope::{Scope, ScopeTree};

/// The function at which each location label is checked.
pub struct Homes {
    /// `None` for labels checked at `main` (escaping or global ones).
    pub home: IndexVec<Rho, Option<FnId>>,
    /// The function whose scope each label belongs to (`None` for the root).
    pub owner: IndexVec<Rho, Option<FnId>>,
}

impl Homes {
    /// The function at which a label's accesses are complete: its home, or `main`.
    pub fn home_of(&self, rho: Rho) -> Option<FnId> {
        self.home.get(rho).copied().flatten()
    }

    /// Every label checked at `main` (the `--no-down-fork` switch).
    pub fn none(c: &Constraints) -> Homes {
        Homes {
            home: IndexVec::from_elem_n(None, c.rhos.len()),
            owner: IndexVec::from_elem_n(None, c.rhos.len()),
        }
    }

    /// The function whose scope a label belongs to.
    pub fn owner_of(&self, rho: Rho) -> Option<FnId> {
        self.owner.get(rho).copied().flatten()
    }

    /// The functions at which the labels `checked` are checked: `main`, their homes and their
    /// owners (sorted). Only the facts of these functions are read by the check.
    pub fn checked_at(&self, checked: &[Rho], main: FnId) -> Vec<FnId> {
        let mut at: Vec<FnId> = vec![main];
        for &rho in checked {
            at.extend(self.home_of(rho));
            at.extend(self.owner_of(rho));
        }
        at.sort();
        at.dedup();
        at
    }
}

/// Decides the home of every location label.
pub fn decide(c: &Constraints, scopes: &ScopeTree, p: &ThreadProgram, flow: &FlowGraph) -> Homes {
    let n = c.rhos.len();
    // The function owning each scope (the root belongs to `main`, whose labels are global).
    let mut fn_of_scope: IndexVec<Scope, Option<FnId>> = IndexVec::from_elem_n(None, scopes.len());
    for (f, body) in p.funcs.iter_enumerated() {
        if body.scope != Scope::ROOT && Some(f) != p.main {
            fn_of_scope[body.scope] = Some(f);
        }
    }
    let owner = |r: Rho| -> Option<FnId> {
        let mut s = c.rhos[r].scope;
        loop {
            if let Some(f) = fn_of_scope.get(s).copied().flatten() {
                return Some(f);
            }
            s = scopes.parent(s)?;
        }
    };
    let owners: IndexVec<Rho, Option<FnId>> = (0..n).map(|i| owner(Rho(i as u32))).collect();

    let mut escapes: IndexVec<Rho, bool> = owners.iter().map(Option::is_none).collect();
    for inst in &c.rho_insts {
        escapes[inst.generic] = true;
    }
    for &(a, b) in &c.pack_flows {
        escapes[a] = true;
        escapes[b] = true;
    }
    for &(a, _, b) in &c.pack_rho_maps {
        escapes[a] = true;
        escapes[b] = true;
    }
    // Flow and summary edges, in both directions: across scopes they escape, within a scope
    // escaping spreads.
    let mut stack: Vec<Rho> = Vec::new();
    for r in (0..n).map(|i| Rho(i as u32)) {
        for &q in flow.preds[r].iter().chain(&flow.succ[r]) {
            if owners[q] != owners[r] {
                escapes[r] = true;
            }
        }
    }
    for r in (0..n).map(|i| Rho(i as u32)) {
        if escapes[r] {
            stack.push(r);
        }
    }
    while let Some(r) = stack.pop() {
        for &q in flow.preds[r].iter().chain(&flow.succ[r]) {
            if !escapes[q] {
                escapes[q] = true;
                stack.push(q);
            }
        }
    }
    let home = (0..n)
        .map(|i| {
            let r = Rho(i as u32);
            if escapes[r] {
                None
            } else {
                owners[r]
            }
        })
        .collect();
    Homes {
        home,
        owner: owners,
    }
}
