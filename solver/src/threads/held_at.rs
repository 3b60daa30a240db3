//! Where a lock call's held lock was taken: for each lock call of a deadlock, the lock calls
//! that may have acquired the cycle's lock it holds, as ThreadSanitizer's lock-order
//! inversion names both acquisitions of every edge.
//!
//! The search walks back from the lock call along the path the deadlock check reports for it
//! (its `steps`, from the level down): in each function, backwards over its control flow from
//! the point reached, a path ends at an acquisition of the lock (which is recorded) or at a
//! release of it; paths that reach the function's entry go on in its caller, from the call.
//! A lock is recognised in a callee by its image at each call site up to the level, as the
//! lock order names it. A fork ends the walk: a thread starts holding none of its parent's
//! locks. A lock taken inside a helper the path calls (a `lock_it(&m)` wrapper) is not found:
//! such an acquisition is then simply not listed.
//!
//! This module decides nothing about deadlocks and names no lock for a reader.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::locksets::translate;
use super::structure::CallPoint;
use super::{AcqId, Event, FnId, ThreadProgram};
use crate::constraints::{Constraints, Lock};
use crate::locks::LockTable;
use crate::scope::ScopeTree;

/// The search for where held locks were taken: what it reads, and the lock calls' places and
/// the functions' predecessors it finds on the way.
pub struct Search<'a> {
    pub constraints: &'a Constraints,
    pub scopes: &'a ScopeTree,
    pub program: &'a ThreadProgram,
    /// Where each lock call is: its function, block and event index.
    at: FxHashMap<AcqId, (FnId, u32, u32)>,
    /// Each function's blocks' predecessors.
    preds: FxHashMap<FnId, Vec<Vec<u32>>>,
    /// What each search found, by what it reads: a lock call reached along one path is an
    /// acquisition of many deadlocks (an interpreter whose operations call back holding their
    /// module's lock: each lock call in hundreds of cycles).
    found: FxHashMap<(AcqId, Lock, Vec<CallPoint>), Vec<AcqId>>,
}

impl<'a> Search<'a> {
    pub fn new(
        constraints: &'a Constraints,
        scopes: &'a ScopeTree,
        program: &'a ThreadProgram,
    ) -> Search<'a> {
        let mut at = FxHashMap::default();
        for (f, body) in program.funcs.iter_enumerated() {
            for (b, block) in body.blocks.iter().enumerate() {
                for (k, e) in block.events.iter().enumerate() {
                    if let Event::Acquire(_, _, Some(acq)) = *e {
                        at.insert(acq, (f, b as u32, k as u32));
                    }
                }
            }
        }
        Search {
            constraints,
            scopes,
            program,
            at,
            preds: FxHashMap::default(),
            found: FxHashMap::default(),
        }
    }

    fn preds(&mut self, f: FnId) -> &[Vec<u32>] {
        let p = self.program;
        self.preds
            .entry(f)
            .or_insert_with(|| p.funcs[f].predecessors())
    }

    /// The lock calls that may have taken `lock` (as `level` names it, a class representative)
    /// that lock call `acq`, reached from `level` along `steps`, holds; sorted.
    pub fn held_at(
        &mut self,
        locks: &mut LockTable,
        steps: &[CallPoint],
        acq: AcqId,
        lock: Lock,
    ) -> Vec<AcqId> {
        let lock = locks.find(lock);
        let key = (acq, lock, steps.to_vec());
        if let Some(found) = self.found.get(&key) {
            return found.clone();
        }
        let found = self.search(locks, steps, acq, lock);
        self.found.insert(key, found.clone());
        found
    }

    /// [`Search::held_at`], the lock a class representative, searched.
    fn search(
        &mut self,
        locks: &mut LockTable,
        steps: &[CallPoint],
        acq: AcqId,
        lock: Lock,
    ) -> Vec<AcqId> {
        let Some(&(func, block, index)) = self.at.get(&acq) else {
            return Vec::new();
        };
        let mut found = BTreeSet::new();
        let (mut f, mut point) = (func, (block, index));
        for depth in (0..=steps.len()).rev() {
            let entry = self.back_from(locks, steps, depth, f, point, lock, &mut found);
            if !entry || depth == 0 {
                break;
            }
            let up = steps[depth - 1];
            let through_fork = matches!(
                self.program.funcs[up.caller].blocks[up.block as usize].events[up.index as usize],
                Event::Fork { .. }
            );
            if through_fork {
                break;
            }
            f = up.caller;
            point = (up.block, up.index);
        }
        found.into_iter().collect()
    }

    /// Searches `f` backwards from before event `point` for acquisitions of `lock` (named
    /// through `steps[..depth]`), adding them to `found`; whether some path reaches the entry
    /// without one.
    #[allow(clippy::too_many_arguments)]
    fn back_from(
        &mut self,
        locks: &mut LockTable,
        steps: &[CallPoint],
        depth: usize,
        f: FnId,
        point: (u32, u32),
        lock: Lock,
        found: &mut BTreeSet<AcqId>,
    ) -> bool {
        let preds = self.preds(f).to_vec();
        let blocks = &self.program.funcs[f].blocks;
        let mut seen: BTreeSet<u32> = BTreeSet::new();
        let mut work: Vec<(u32, usize)> = vec![(point.0, point.1 as usize)];
        let mut entry = false;
        while let Some((b, end)) = work.pop() {
            let mut stopped = false;
            for e in blocks[b as usize].events[..end].iter().rev() {
                match *e {
                    Event::Acquire(l, _, acq) if self.names(locks, steps, depth, l, lock) => {
                        found.extend(acq);
                        stopped = true;
                    }
                    Event::Release(l) if self.names(locks, steps, depth, l, lock) => {
                        stopped = true;
                    }
                    _ => {}
                }
                if stopped {
                    break;
                }
            }
            if stopped {
                continue;
            }
            if b == 0 {
                entry = true;
            }
            for &q in &preds[b as usize] {
                if seen.insert(q) {
                    work.push((q, blocks[q as usize].events.len()));
                }
            }
        }
        entry
    }

    /// Whether lock `l` of the function at `depth` of the path is `lock` of the level: its
    /// image through each call site above it.
    fn names(
        &self,
        locks: &mut LockTable,
        steps: &[CallPoint],
        depth: usize,
        l: Lock,
        lock: Lock,
    ) -> bool {
        let mut l = Some(l);
        for step in steps[..depth].iter().rev() {
            l = l.and_then(|l| translate(self.constraints, self.scopes, locks, step.site, l));
        }
        l.is_some_and(|l| locks.find(l) == lock)
    }
}
