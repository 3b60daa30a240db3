//! A bound on the lock states the contexts of correlation facts and the facts of the lock order
//! take: past a number of distinct ones, a new state is widened to the join of those taken.
//!
//! A fact's lock state relative to its function's entry (the locks held, those that may have
//! been released) changes at every call it crosses: `held' = φ(held) ∪ (caller's held −
//! φ(released))` (paper §3.1, "Inferring Correlations"; [`super::facts`]). Around a cycle of
//! calls whose functions each release a lock of their own (an interpreter that calls
//! registered operations, each locking its module, which call back into the interpreter),
//! every path through the cycle releases its own combination, and a function of the cycle
//! sees every subset of those locks. The facts leave released sets out where no caller above
//! holds a lock, which reads them; where one does (the interpreter run under a big lock, as
//! in the fixture `recursion/interpreter_module_locks.c`: ten module locks, 45,608 contexts
//! without a bound, 198 with it), and where the calls are made holding the module's lock
//! (the held sets then combine the same way), only a bound keeps them finite. The paper's
//! relative locksets are finite because lock labels are; nothing bounds how many of them one
//! function collects.
//!
//! Two bounds, each on what a context's other parts leave free:
//!
//! - the held sets of the contexts that differ only in their locks: past [`VARIANTS`]
//!   distinct ones, a new one is the intersection of all (the locks held on every path);
//! - the released sets of the contexts that differ only in their released set: past
//!   [`RELEASED_VARIANTS`], a new one is the union of all (the locks some path released).
//!
//! A widened state holds no lock the states it stands for do not all hold, and releases every
//! lock one of them releases, so each caller's view of it holds fewer locks: the race check
//! may report more, never less. A key's join moves at most once per lock of the program, so a
//! context key has at most `VARIANTS` plus as many held sets as there are locks, each with at
//! most `RELEASED_VARIANTS` plus as many released sets.
//!
//! The bounds are a few times what real code takes, and no more: every context a key keeps
//! exactly is one more copy of its function's facts. No real program keeps more than 12 held
//! sets or 6 released sets for one key (pigz), no shape of the bench more than 4 and 2, and
//! no fixture but those made for this reaches either bound, so their reports are
//! byte-identical. An interpreter of ten modules whose operations call back holding their
//! module's lock takes every subset of the locks: with bounds of 256 held and 32 released
//! sets its functions had 628,354 contexts (sharing 2.4 s for 2,175 lines); with 32 and 16,
//! 41,483 (0.16 s), with the same races (some of their accesses are listed with fewer
//! locks held). Where the bound is reached, the check may report races its precise (and
//! exponential) propagation rules out.
//!
//! The lock order ([`super::order`]) has the same growth, and a third bound: past
//! [`ORDER_VARIANTS`] distinct states of the lock-call facts of a function on a cycle of calls
//! that differ in nothing else, a new one is their join — the union of the locks held on some
//! path (more edges), of those held on every path (more self-deadlocks) and of the gates'
//! released sets, the intersection of the released sets and of the gates (fewer gates). A
//! widened fact thus reports every deadlock one of its facts would, and more. The order's
//! gates are kept apart from its must-held sets for this: one join cannot both keep every
//! self-deadlock and hide no cycle (`deadlocks/interpreter_under_big_lock.c` reaches this
//! bound, its cycles still gated by the big lock every path holds).
//!
//! This module never makes a fact; it only chooses the lock state a new one takes.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::locksets::{LockSets, SetId};

/// The distinct held sets the contexts that differ only in their locks keep exactly, before new
/// ones are widened (real programs keep at most 12).
pub const VARIANTS: u32 = 32;

/// The distinct lock states the lock-call facts of a function on a cycle of calls keep exactly
/// when they differ in nothing else, before new ones are widened ([`super::order`]). A fact
/// stands for one lock call, where a context stands for every access of its function, so the
/// bound is lower than [`VARIANTS`]. No real program and no fixture but the interpreters
/// (`recursion/interpreter_module_locks.c`, `deadlocks/interpreter_*_big_lock.c`) reaches it.
pub const ORDER_VARIANTS: u32 = 8;

/// The distinct released sets a context keeps exactly, its held sets being the same, before new
/// ones are widened (real programs keep at most 6).
pub const RELEASED_VARIANTS: u32 = 16;

/// How one lock set of a state is joined when states are widened.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Join {
    /// Locks held on every path: intersected.
    Must,
    /// Locks held or released on some path: united.
    May,
}

/// The lock states taken per context key, and their joins.
pub struct Widening<K, const N: usize> {
    joins: [Join; N],
    /// The distinct states a key keeps exactly.
    variants: u32,
    keys: FxHashMap<K, Taken<N>>,
    /// How many new contexts were widened.
    pub widened: usize,
    /// The most distinct states one key kept exactly (at most `variants`).
    pub most: u32,
}

/// What one key has taken: how many distinct states, and their join.
struct Taken<const N: usize> {
    variants: u32,
    join: [SetId; N],
}

impl<K: Hash + Eq, const N: usize> Widening<K, N> {
    pub fn new(joins: [Join; N], variants: u32) -> Self {
        Widening {
            joins,
            variants,
            keys: FxHashMap::default(),
            widened: 0,
            most: 0,
        }
    }

    /// Whether `key` has taken some state.
    pub fn knows(&self, key: &K) -> bool {
        self.keys.contains_key(key)
    }

    /// The lock state a context of `key` that does not exist yet takes, its own state being
    /// `state`: `state` itself while the key has taken fewer than [`VARIANTS`] distinct
    /// states, then the join of every state it has taken, `state` included. Call it once per
    /// new context only: a context that exists keeps its state.
    pub fn state(&mut self, key: K, state: [SetId; N], sets: &mut LockSets) -> [SetId; N] {
        let taken = self.keys.entry(key).or_insert(Taken {
            variants: 0,
            join: state,
        });
        for (k, join) in self.joins.iter().enumerate() {
            taken.join[k] = match join {
                Join::Must => sets.intersect(taken.join[k], state[k]),
                Join::May => sets.union(taken.join[k], state[k]),
            };
        }
        if taken.variants < self.variants {
            taken.variants += 1;
            self.most = self.most.max(taken.variants);
            return state;
        }
        self.widened += 1;
        taken.join
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::Lock;
    use crate::threads::locksets::Held;
    use crate::threads::Mode;

    fn set(sets: &mut LockSets, locks: &[u32]) -> SetId {
        sets.intern(
            locks
                .iter()
                .map(|&l| Held::new(Lock(l), Mode::Exclusive))
                .collect(),
        )
    }

    const CAP: u32 = 16;

    /// Every subset of six locks as (held, released) of one key: the first `CAP` are kept,
    /// then each new one is the join so far, which only shrinks the held locks and grows the
    /// released ones, so the states taken stay few.
    #[test]
    fn states_past_the_bound_are_joins_that_move_monotonically() {
        let mut sets = LockSets::new();
        let mut w: Widening<u32, 2> = Widening::new([Join::Must, Join::May], CAP);
        let mut distinct = std::collections::BTreeSet::new();
        let mut previous: Option<[SetId; 2]> = None;
        for bits in 0u32..64 {
            let held: Vec<u32> = (0..6).filter(|k| bits & (1 << k) != 0).collect();
            let released: Vec<u32> = (0..6).filter(|k| bits & (1 << k) == 0).collect();
            let state = [set(&mut sets, &held), set(&mut sets, &released)];
            let out = w.state(7, state, &mut sets);
            if bits < CAP {
                assert_eq!(out, state);
            } else {
                // Sound: no more held, no fewer released than the state it stands for.
                let (h, r) = (sets.get(out[0]).to_vec(), sets.get(out[1]).to_vec());
                assert!(h.iter().all(|x| sets.get(state[0]).contains(x)));
                assert!(sets.get(state[1]).iter().all(|x| r.contains(x)));
                if let Some(p) = previous {
                    assert!(h.iter().all(|x| sets.get(p[0]).contains(x)));
                    assert!(sets.get(p[1]).iter().all(|x| r.contains(x)));
                }
                previous = Some(out);
            }
            distinct.insert(out);
        }
        assert_eq!(w.widened, 64 - CAP as usize);
        // Sixteen kept, then at most one join per lock in each direction.
        assert!(distinct.len() <= CAP as usize + 12, "{}", distinct.len());
    }

    /// Keys are widened apart: another key's states do not count.
    #[test]
    fn keys_are_bounded_apart() {
        let mut sets = LockSets::new();
        let mut w: Widening<u32, 1> = Widening::new([Join::May], CAP);
        for k in 0..CAP {
            for key in 0..3 {
                let s = set(&mut sets, &[k]);
                assert_eq!(w.state(key, [s], &mut sets), [s]);
            }
        }
        assert_eq!(w.widened, 0);
        let s = set(&mut sets, &[99]);
        let out = w.state(1, [s], &mut sets);
        assert_eq!(sets.get(out[0]).len(), CAP as usize + 1);
    }
}
