//! The locks no lock call is made holding, at any level of the lock order: a lock call that
//! waits for one of them is on no cycle and is no self-deadlock, so [`super::order`] makes no
//! fact of it.
//!
//! A level's lock-order graph ([`super::deadlock`]) has an edge out of a lock only where one of
//! the level's facts holds it. A fact holds the locks of its lock call's state in its own
//! function and the locks its callers hold at the calls above, each renamed through the calls
//! on the way (its image at a call's site, or itself where it is not generic there). So every
//! class a fact may hold, at any level, is among [`Unheld`]'s `held`: the classes of the held
//! sets at every waiting lock call and at every call point, closed under their images at every
//! site. The lock a fact waits for is, at every level, its own lock or one of that closure's
//! images. When none of those is in `held`, no level's graph has an edge out of the lock the
//! fact waits for: none of the fact's edges is on a cycle, and it is no self-deadlock (which
//! needs its lock held). Dropping such facts leaves every deadlock and every report as it was.
//!
//! A lock that may be any lock ([`super::deadlock::may_be_any`]) breaks the argument: held, it
//! may be the lock another call waits for; waited for, the deadlock check gives its edges to
//! other locks. So when a class in `held` may be any lock nothing is unheld, and a lock call
//! one of whose images may be any lock is kept.
//!
//! Beyond RacerX §4 (LOCKSMITH has no deadlock check), whose lock order has an edge for every
//! lock taken while another is held, leaves included: in a program whose locks are mostly
//! leaves (a counter's mutex, a statistics lock), the facts of the leaves are most of the lock
//! order, and where one call through a pointer may call every module's function (a pager
//! calling the I/O method of whichever module opened the file), each module's leaf lock reached
//! every caller of every module: facts grew as the square of the modules.
//!
//! This module decides no deadlock; it only says which lock calls cannot be part of one.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use super::deadlock::{external_classes, may_be_any};
use super::linearity::Linearity;
use super::locksets::{LockSets, Locksets};
use super::structure::Structure;
use super::{Event, FnId, ThreadProgram};
use crate::constraints::Lock;
use crate::ids::IndexVec;
use crate::locks::LockTable;

/// Which locks no lock call is made holding, at any level.
pub struct Unheld<'a> {
    /// Every class some lock-call fact may hold at some level; `None` when one of them may be
    /// any lock at a level every function's facts may reach.
    held: Option<FxHashSet<Lock>>,
    /// Per function, whether its facts may reach a level where a fact holds a lock that may be
    /// any lock ([`Unheld::new`]).
    near_any: IndexVec<FnId, bool>,
    external: BTreeSet<Lock>,
    linearity: &'a Linearity,
    /// Per class waited for, whether no image of it is held, memoised.
    memo: FxHashMap<Lock, bool>,
}

impl<'a> Unheld<'a> {
    /// Collects the held classes of `p`'s lock calls and call points (`ls`'s states, the lock
    /// order's) and closes them under their images.
    ///
    /// A held lock that may be any lock matters only at the levels where a fact holds it: its
    /// function's and those above it (its *callers*, through calls and forks, transitively).
    /// A lock call's facts are at its function's level and above, so it meets such a lock only
    /// if its function is that function or below one of those levels (`near_any`). Such locks
    /// are held mostly in functions nothing calls (a getter no module uses, whose object's lock
    /// is a parameter bound nowhere), so only the functions they call are near one. An image
    /// of a held lock that may be any lock, but is not held directly, could be held anywhere
    /// above, so then no lock is unheld.
    pub fn new(
        p: &ThreadProgram,
        s: &Structure,
        ls: &Locksets,
        locks: &mut LockTable,
        linearity: &'a Linearity,
    ) -> Unheld<'a> {
        let external = external_classes(p, locks);
        let mut held: FxHashSet<Lock> = FxHashSet::default();
        let mut work: Vec<Lock> = Vec::new();
        // The functions that hold a lock that may be any lock.
        let mut holding_any: Vec<FnId> = Vec::new();
        let mut any = false;
        let mut hold = |f: FnId, block: u32, index: u32, locks: &mut LockTable| {
            let state = ls.state_before(f, block, index);
            let mut wild = false;
            for set in [Some(state.may_held), state.held].into_iter().flatten() {
                any |= set == LockSets::ALL;
                for h in ls.sets.get(set) {
                    let r = locks.find(h.lock);
                    wild |= may_be_any(&external, linearity, locks, r);
                    if held.insert(r) {
                        work.push(r);
                    }
                }
            }
            if wild {
                holding_any.push(f);
            }
        };
        for (f, body) in p.funcs.iter_enumerated() {
            for (b, block) in body.blocks.iter().enumerate() {
                for (k, e) in block.events.iter().enumerate() {
                    if let Event::Acquire(_, _, Some(acq)) = *e {
                        if p.acquisitions[acq].waits {
                            hold(f, b as u32, k as u32, locks);
                        }
                    }
                }
            }
        }
        for pt in s.callers.iter().flatten() {
            hold(pt.caller, pt.block, pt.index, locks);
        }
        // Every class held directly is in `held` already: what the closure adds is an image only.
        while let Some(l) = work.pop() {
            for x in locks.images_of(l) {
                if held.insert(x) {
                    any |= may_be_any(&external, linearity, locks, x);
                    work.push(x);
                }
            }
        }
        let near_any = below(s, &above(s, holding_any));
        Unheld {
            held: (!any).then_some(held),
            near_any,
            external,
            linearity,
            memo: FxHashMap::default(),
        }
    }

    /// Whether a lock call of `func` waiting for `lock` cannot be part of a deadlock: no class
    /// it may be renamed to, at any level, is held by a lock call there or may be any lock.
    pub fn waits_for_unheld(&mut self, locks: &mut LockTable, func: FnId, lock: Lock) -> bool {
        let Some(held) = &self.held else {
            return false;
        };
        if self.near_any[func] {
            return false;
        }
        let start = locks.find(lock);
        if let Some(&known) = self.memo.get(&start) {
            return known;
        }
        let mut seen: FxHashSet<Lock> = FxHashSet::default();
        seen.insert(start);
        let mut work = vec![start];
        let mut unheld = true;
        while let Some(l) = work.pop() {
            if held.contains(&l) || may_be_any(&self.external, self.linearity, locks, l) {
                unheld = false;
                break;
            }
            for x in locks.images_of(l) {
                if seen.insert(x) {
                    work.push(x);
                }
            }
        }
        self.memo.insert(start, unheld);
        unheld
    }
}

/// The functions `from` and every function that calls or starts one of them, transitively.
fn above(s: &Structure, from: Vec<FnId>) -> IndexVec<FnId, bool> {
    let mut marked = IndexVec::from_elem_n(false, s.callers.len());
    let mut work = from;
    while let Some(f) = work.pop() {
        if std::mem::replace(&mut marked[f], true) {
            continue;
        }
        for pt in s.callers[f].iter().chain(&s.forkers[f]) {
            work.push(pt.caller);
        }
    }
    marked
}

/// The functions `marked` and every function one of them calls or starts, transitively.
fn below(s: &Structure, marked: &IndexVec<FnId, bool>) -> IndexVec<FnId, bool> {
    let mut below: IndexVec<FnId, Vec<FnId>> = IndexVec::from_elem_n(Vec::new(), s.callers.len());
    for (f, points) in s.callers.iter_enumerated() {
        for pt in points.iter().chain(&s.forkers[f]) {
            below[pt.caller].push(f);
        }
    }
    let mut out = marked.clone();
    let mut work: Vec<FnId> = marked
        .iter_enumerated()
        .filter_map(|(f, &m)| m.then_some(f))
        .collect();
    while let Some(f) = work.pop() {
        for &g in &below[f] {
            if !std::mem::replace(&mut out[g], true) {
                work.push(g);
            }
        }
    }
    out
}
