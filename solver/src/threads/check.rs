//! Sharing and consistent correlation for C (paper §3.1, last paragraphs, and §3.2).
//!
//! At `main` every fact says which thread accessed a location, holding which locks. A location
//! needs consistent correlation only if it is *shared*: accessed by two threads, or by one thread
//! that may run concurrently with itself (forked in a loop or from code that runs several times),
//! with at least one write — ignoring what `main` does before its first fork. A shared location is
//! consistently correlated when some lock is held at all of its accesses:
//! `|⋂ S(C, ρ)| ≥ 1`. Copies of an allocation made by different calls are checked separately.

use std::collections::BTreeMap;

use rustc_hash::FxHashSet;

use super::facts::{witnesses, CFact, CFactId, Thread};
use super::locksets::LockSets;
use super::structure::Structure;
use super::{AccessId, ThreadProgram};
use crate::constraints::{Lock, Rho, Site};
use crate::ids::IndexVec;

/// One access of a racy location, as the thread analysis sees it at `main`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RaceAccess {
    pub access: AccessId,
    /// The locks held (linear lock class representatives).
    pub held: Vec<Lock>,
    pub thread: Thread,
}

/// A location that two threads may access without a common lock.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RaceWarning {
    pub rho: Rho,
    pub accesses: Vec<RaceAccess>,
}

/// Whether the thread started at a fork site may run concurrently with itself.
fn thread_multi(s: &Structure, site: Site) -> bool {
    s.forkers
        .iter()
        .flatten()
        .filter(|pt| pt.site == site)
        .any(|pt| s.point_multi(pt))
}

/// Checks every location of `p.checked` and returns the warnings, sorted.
pub fn check(
    p: &ThreadProgram,
    s: &Structure,
    sets: &LockSets,
    facts: &IndexVec<CFactId, CFact>,
) -> Vec<RaceWarning> {
    let Some(main) = p.main else {
        return Vec::new();
    };
    let checked: FxHashSet<Rho> = p.checked.iter().copied().collect();
    let local: FxHashSet<Rho> = p.thread_local.iter().copied().collect();
    // Root facts by location, then by copy tag.
    let mut by_rho: BTreeMap<Rho, BTreeMap<Option<Site>, Vec<CFactId>>> = BTreeMap::new();
    for (id, f) in facts.iter_enumerated() {
        if f.func == main && !f.prefork && checked.contains(&f.rho) && !local.contains(&f.rho) {
            by_rho
                .entry(f.rho)
                .or_default()
                .entry(f.tag)
                .or_default()
                .push(id);
        }
    }
    let mut warnings = Vec::new();
    for (rho, groups) in by_rho {
        let every_copy: Vec<CFactId> = groups.get(&None).cloned().unwrap_or_default();
        let mut copies: Vec<Vec<CFactId>> = vec![every_copy.clone()];
        for (tag, group) in &groups {
            if tag.is_some() {
                let mut merged = every_copy.clone();
                merged.extend(group.iter().copied());
                copies.push(merged);
            }
        }
        for group in copies {
            if let Some(w) = racy(rho, &group, s, sets, facts) {
                warnings.push(w);
                break;
            }
        }
    }
    warnings.sort();
    warnings
}

fn racy(
    rho: Rho,
    ids: &[CFactId],
    s: &Structure,
    sets: &LockSets,
    facts: &IndexVec<CFactId, CFact>,
) -> Option<RaceWarning> {
    let group: Vec<&CFact> = ids.iter().map(|&id| &facts[id]).collect();
    if group.is_empty() || !group.iter().any(|f| f.writes) {
        return None;
    }
    let threads: FxHashSet<Thread> = group.iter().map(|f| f.thread).collect();
    let self_concurrent = threads.iter().any(|t| match t {
        Thread::Forked(site) => thread_multi(s, *site),
        Thread::Current => false,
    });
    if threads.len() < 2 && !self_concurrent {
        return None;
    }
    let mut common: Option<Vec<Lock>> = None;
    for f in &group {
        let held = sets.get(f.held);
        common = Some(match common {
            None => held.to_vec(),
            Some(c) => c.into_iter().filter(|l| held.contains(l)).collect(),
        });
    }
    if common.is_some_and(|c| !c.is_empty()) {
        return None;
    }
    let mut accesses: Vec<RaceAccess> = Vec::new();
    for (&id, f) in ids.iter().zip(&group) {
        for a in witnesses(facts, id) {
            accesses.push(RaceAccess {
                access: a,
                held: sets.get(f.held).to_vec(),
                thread: f.thread,
            });
        }
    }
    accesses.sort();
    accesses.dedup();
    Some(RaceWarning { rho, accesses })
}
