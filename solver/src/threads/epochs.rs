//! Which creations make one object at a time: the epochs of a lazily filled global pointer
//! ([`ThreadProgram::epochs`], found by the front end) whose argument holds here, for
//! [`super::linearity`] (an extension beyond the paper, whose linearity counts an object made
//! by a function that runs twice as two).
//!
//! The front end checked that each creation runs at most once while the guard stays set, and
//! that the guard and its companions are never copied. What is left needs the threads: the
//! creations' functions run in no thread (so no two creations overlap), and at every reset of
//! the guard no other thread may be running (so no thread runs across two epochs, and every
//! thread sees at most one object of each creation). A function runs alone at one of its points
//! when it runs in no thread, no thread it started may be running there but those a join since
//! ended ([`Mhp::runs_beside`]), and every call of it is made at a point where its caller runs
//! alone but for the threads of handles the callee (or one it called) joined before the point
//! asked, up to `main` (`stop() { join_all(); gate = NULL; }`, whose caller started the
//! threads). A
//! function no call names (one run from unknown code), a recursive one, and one a thread starts
//! never run alone.
//!
//! This module never changes the program; it only answers which epochs hold.

use rustc_hash::{FxHashMap, FxHashSet};

use super::mhp::{reachable_from_threads, Mhp};
use super::structure::Structure;
use super::{AccessId, Event, FnId, ObjectId, ThreadHandle, ThreadProgram};
use crate::constraints::Site;
use crate::ids::IndexVec;

/// What the epochs that hold make once at a time: the objects their creations allocate, and
/// the instantiation sites of their calls.
#[derive(Default)]
pub struct OncePerEpoch {
    pub objects: FxHashSet<ObjectId>,
    pub sites: FxHashSet<Site>,
}

impl OncePerEpoch {
    /// The objects and sites of every epoch of `p` whose creators run in no thread and whose
    /// resets are each made where the resetting function runs alone.
    pub fn of(p: &ThreadProgram, s: &Structure, mhp: &Mhp) -> OncePerEpoch {
        let mut out = OncePerEpoch::default();
        if p.epochs.is_empty() {
            return out;
        }
        let resets: FxHashSet<AccessId> = p
            .epochs
            .iter()
            .flat_map(|e| e.resets.iter().copied())
            .collect();
        let mut at: FxHashMap<AccessId, (FnId, (u32, u32))> = FxHashMap::default();
        for (f, body) in p.funcs.iter_enumerated() {
            for (b, block) in body.blocks.iter().enumerate() {
                for (k, e) in block.events.iter().enumerate() {
                    if let Event::Access(a) = *e {
                        if resets.contains(&a) {
                            at.insert(a, (f, (b as u32, k as u32)));
                        }
                    }
                }
            }
        }
        let mut alone = Alone {
            p,
            s,
            mhp,
            thread_code: reachable_from_threads(p),
            entry: FxHashMap::default(),
        };
        for epoch in &p.epochs {
            let holds = epoch.creators.iter().all(|&f| !alone.thread_code[f])
                && epoch
                    .resets
                    .iter()
                    .all(|a| at.get(a).is_some_and(|&(f, event)| alone.at(f, event, &[])));
            if holds {
                out.objects.extend(epoch.objects.iter().copied());
                out.sites.extend(epoch.sites.iter().copied());
            }
        }
        out
    }
}

/// Whether a function runs alone at a point: no other thread may be running there.
struct Alone<'a> {
    p: &'a ThreadProgram,
    s: &'a Structure,
    mhp: &'a Mhp,
    thread_code: IndexVec<FnId, bool>,
    /// Whether each function asked so far runs alone on entry, once the threads of the
    /// handles joined below it are ended.
    entry: FxHashMap<(FnId, Vec<ThreadHandle>), bool>,
}

impl Alone<'_> {
    /// Whether `f` runs alone at event `index` of `block`, given the handles joined (ending all
    /// their threads) in the runs it is called from, below this point of the call chain: the
    /// threads its own run started are ended there, or are those of a handle it or they
    /// joined since.
    fn at(&mut self, f: FnId, (block, index): (u32, u32), below: &[ThreadHandle]) -> bool {
        let mut ended: Vec<ThreadHandle> = below.to_vec();
        let joined = self.mhp.joined_at(f, block, index);
        ended.extend(self.mhp.handle_sets.get(joined).iter().copied());
        ended.sort();
        ended.dedup();
        let point = self.mhp.point(f, block, index);
        !self.thread_code[f] && !self.mhp.runs_beside(f, point, &ended) && self.on_entry(f, ended)
    }

    fn on_entry(&mut self, f: FnId, ended: Vec<ThreadHandle>) -> bool {
        if Some(f) == self.p.main {
            return !self.s.recursive[f];
        }
        let key = (f, ended);
        if let Some(&known) = self.entry.get(&key) {
            return known;
        }
        // A cycle of calls is recursion, which never runs alone; guard the walk anyway.
        self.entry.insert(key.clone(), false);
        let calls = &self.s.callers[f];
        let ok = !self.s.recursive[f]
            && self.s.forkers[f].is_empty()
            && !calls.is_empty()
            && calls
                .iter()
                .all(|cp| self.at(cp.caller, (cp.block, cp.index), &key.1));
        self.entry.insert(key, ok);
        ok
    }
}
