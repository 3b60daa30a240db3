//! Resolution of a λ▷ constraint set (paper §2.3): the rounds that connect the parts of figure 8.
//!
//! Matched flow (8a) does not depend on locks, so it is closed once. Lock unification and
//! semi-unification (8a), effects (8c) and correlations (8b) depend on each other: effects need to
//! know which locks *escape* (\[Down\]), which depends on correlations; correlations need fresh
//! images for locks in instantiated effects; fresh images feed semi-unification. Each round
//! recomputes effects and correlations from the current lock table and escape sets; escape sets
//! only grow and unions only merge, so the rounds reach a fixpoint.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::cfl::{self, FlowGraph};
use crate::constraints::{Access, Constraints, EffectVar, Filter, Lock, Rho, RhoKind, Site};
use crate::correlation::{self, Fact, FactId, Index};
use crate::effects::{self, Atom, Escapes, NonLinear, Occurrences};
use crate::ids::{Idx, IndexVec};
use crate::locks::{self, LockTable};
use crate::scope::{Scope, ScopeTree};

/// Rounds beyond this bound mean the fixpoint is not converging; the solver then gives up soundly.
const MAX_ROUNDS: usize = 64;

/// One lock a location is correlated with at the root, with the accesses that produced the
/// correlation and the instantiation sites the first of them was carried through.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Correlated {
    pub lock: Lock,
    pub accesses: Vec<Access>,
    pub path: Vec<Site>,
}

/// One reason a program is not accepted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Violation {
    /// Definition 2: an allocated location (one copy of it) is correlated with more than one lock
    /// (`|S(C, ρ)| > 1`), with the accesses that produced each correlation.
    Inconsistent { rho: Rho, locks: Vec<Correlated> },
    /// A lock opened by an `unpack` guards a location outside its own package, so it may stand for
    /// the locks of several packages (§3.3).
    OpenedLockEscapes {
        rho: Rho,
        lock: Lock,
        accesses: Vec<Access>,
    },
    /// A disjoint union that is not disjoint: a lock label standing for two run-time locks.
    NonLinear(NonLinear),
    /// `effect(τ) = ∅` failed for a recursive function (\[Fix\]).
    RecursiveEffect { var: EffectVar, atoms: Vec<Atom> },
    /// Too many locks for one location in one context: reported rather than analysed further.
    Saturated { rho: Rho },
    /// The rounds did not reach a fixpoint within the bound.
    NoConvergence,
}

/// The frozen result of resolution.
pub struct Solution {
    pub scopes: ScopeTree,
    pub flow: FlowGraph,
    /// The representative of every lock, including materialised ones.
    pub lock_rep: IndexVec<Lock, Lock>,
    /// Fresh images created for allocated locks: `(generic, site, image)`.
    pub materialised: Vec<(Lock, Site, Lock)>,
    /// Lock images after semi-unification: `(representative, site, image representative)`.
    pub lock_images: Vec<(Lock, Site, Lock)>,
    /// The solved effect of every effect variable.
    pub effects: IndexVec<EffectVar, Occurrences>,
    /// All correlation facts, in every context.
    pub facts: IndexVec<FactId, Fact>,
    pub violations: Vec<Violation>,
    pub rounds: usize,
}

impl Solution {
    pub fn rep(&self, l: Lock) -> Lock {
        self.lock_rep[l]
    }

    /// The correlations that hold for the whole program: facts that reached the root scope.
    pub fn root_facts(&self) -> impl Iterator<Item = &Fact> {
        self.facts.iter().filter(|f| f.scope == Scope::ROOT)
    }

    /// The locks of a solved effect, ignoring anonymous fresh images.
    pub fn effect_locks(&self, v: EffectVar) -> Vec<Lock> {
        self.effects[v]
            .iter()
            .filter_map(|&(a, _)| match a {
                Atom::Lock(l) => Some(l),
                Atom::Anon(_) => None,
            })
            .collect()
    }

    pub fn is_consistent(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Solves `c` completely.
pub fn solve(c: &Constraints) -> Solution {
    let mut scopes = c.scopes.clone();
    scopes.freeze();
    // The λ▷ checker records no statistics.
    let flow = cfl::close(c, &scopes, &crate::stats::Stats::off());
    let index = Index::new(c);
    let mut locks = locks::unify_all(c, &scopes);

    // Filters whose lambda type mentions a location: a lock correlated with it escapes there.
    let mut filters_of_rho: FxHashMap<Rho, Vec<Filter>> = FxHashMap::default();
    let mut escapes = Escapes {
        explicit: IndexVec::from_elem_n(FxHashSet::default(), c.filters.len()),
        oldest_rho: FxHashMap::default(),
    };
    for (f, data) in c.filters.iter_enumerated() {
        for &r in &data.escape_rhos {
            filters_of_rho.entry(r).or_default().push(f);
        }
        for &l in &data.escape_locks {
            escapes.explicit[f].insert(l);
        }
    }

    let mut rounds = 0;
    let mut converged = false;
    let mut materialised = Vec::new();
    let (effects, corr) = loop {
        rounds += 1;
        escapes.normalise(&mut locks);
        let unions_before = locks.union_count();
        let effects = effects::evaluate(c, &scopes, &mut locks, &escapes);
        let corr = correlation::propagate(c, &scopes, &flow, &index, &mut locks, &effects);
        locks.close(&c.sites, &scopes);
        let mut grew = false;
        // A fact tagged with a call concerns the copy that call made, which was created at the
        // call: it says nothing about the older label it is attached to, so it does not make the
        // lock escape older scopes.
        for fact in corr.facts.iter().filter(|f| f.tag.is_none()) {
            let l = locks.find(fact.lock);
            match escapes.oldest_rho.get_mut(&l) {
                Some(oldest) if *oldest <= fact.rho => {}
                Some(oldest) => {
                    *oldest = fact.rho;
                    grew = true;
                }
                None => {
                    escapes.oldest_rho.insert(l, fact.rho);
                    grew = true;
                }
            }
            if let Some(fs) = filters_of_rho.get(&fact.rho) {
                for &f in fs {
                    grew |= escapes.explicit[f].insert(l);
                }
            }
        }
        let done = corr.materialised.is_empty() && !grew && locks.union_count() == unions_before;
        materialised.extend(corr.materialised.iter().copied());
        if done {
            converged = true;
            break (effects, corr);
        }
        if rounds >= MAX_ROUNDS {
            break (effects, corr);
        }
    };

    let mut violations = Vec::new();
    if !converged {
        violations.push(Violation::NoConvergence);
    }
    for &rho in &corr.saturated {
        violations.push(Violation::Saturated { rho });
    }
    for nl in &effects.nonlinear {
        violations.push(Violation::NonLinear(nl.clone()));
    }
    for (var, atoms) in &effects.nonempty {
        violations.push(Violation::RecursiveEffect {
            var: *var,
            atoms: atoms.clone(),
        });
    }
    check_correlations(c, &mut locks, &corr.facts, &mut violations);
    violations.sort();
    violations.dedup();

    let lock_rep: IndexVec<Lock, Lock> =
        (0..locks.len()).map(|i| locks.find(Lock::new(i))).collect();
    let lock_images = locks.all_images();
    let mut facts = corr.facts;
    for f in facts.iter_mut() {
        f.lock = lock_rep[f.lock];
    }
    Solution {
        scopes,
        flow,
        lock_rep,
        materialised,
        lock_images,
        effects: effects.vars,
        facts,
        violations,
        rounds,
    }
}

/// Definition 2 over the correlations that reached the root, at allocation sites (the location
/// constants R of the soundness theorem). A site's correlations come in groups: untagged ones
/// concern every copy of the allocation, and those tagged with a call concern only the copy that
/// call made; each copy must be correlated with at most one lock.
fn check_correlations(
    c: &Constraints,
    locks: &mut LockTable,
    facts: &IndexVec<FactId, Fact>,
    violations: &mut Vec<Violation>,
) {
    type Groups = BTreeMap<Option<Site>, Vec<Correlated>>;
    let mut by_rho: BTreeMap<Rho, Groups> = BTreeMap::new();
    for (id, fact) in facts.iter_enumerated() {
        if fact.scope != Scope::ROOT || c.rhos[fact.rho].kind != RhoKind::Alloc {
            continue;
        }
        let l = locks.find(fact.lock);
        let group = by_rho
            .entry(fact.rho)
            .or_default()
            .entry(fact.tag)
            .or_default();
        add_correlated(group, l, &fact.witnesses, || correlation::path(facts, id));
    }
    for (rho, groups) in by_rho {
        for x in groups.values().flatten() {
            if locks.opened(x.lock).is_some() {
                violations.push(Violation::OpenedLockEscapes {
                    rho,
                    lock: x.lock,
                    accesses: x.accesses.clone(),
                });
            }
        }
        let every_copy = groups.get(&None).cloned().unwrap_or_default();
        let mut copies: Vec<Vec<Correlated>> = vec![every_copy.clone()];
        for (tag, group) in &groups {
            if tag.is_some() {
                let mut merged = every_copy.clone();
                for x in group {
                    add_correlated(&mut merged, x.lock, &x.accesses, || x.path.clone());
                }
                copies.push(merged);
            }
        }
        if let Some(mut worst) = copies.into_iter().find(|g| g.len() > 1) {
            for x in worst.iter_mut() {
                x.accesses.sort();
                x.accesses.dedup();
            }
            worst.sort();
            violations.push(Violation::Inconsistent { rho, locks: worst });
        }
    }
}

fn add_correlated(
    group: &mut Vec<Correlated>,
    lock: Lock,
    accesses: &[Access],
    path: impl FnOnce() -> Vec<Site>,
) {
    match group.iter_mut().find(|x| x.lock == lock) {
        Some(x) => x.accesses.extend(accesses.iter().copied()),
        None => group.push(Correlated {
            lock,
            accesses: accesses.to_vec(),
            path: path(),
        }),
    }
}
