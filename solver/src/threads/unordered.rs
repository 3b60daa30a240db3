//! Which of many lock sets share no lock with a given one: the pairs of a race check's board
//! that its locks leave unordered ([`super::check`]).
//!
//! Two facts are ordered by their locks when some lock is in both sets, exclusively in one of
//! them ([`LockSets::common_lock`]). Asking that of every pair of a location's lock sets is
//! quadratic in them, and a location reached under many different lock sets that all hold its
//! own lock — a counter of a module's I/O methods, called through a table by a pager that
//! holds the mutex of whichever file it was given — pairs them all to find none unordered (the
//! bench's drivers shape at 1M lines: 178 locations with 356 lock sets each, 11 million
//! pairs). Here each lock lists the sets that hold it, so the sets ordered with one are the
//! union of its locks' lists, found a word of 64 sets at a time, and the unordered ones are
//! what is left.
//!
//! It decides nothing but the locks: what else keeps a pair from racing is the check's.

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

use super::locksets::{Held, LockSets, SetId};
use super::Mode;
use crate::constraints::Lock;

/// Per lock, the sets (by position) holding it exclusively and those holding it at all (a
/// second hold, [`Held::again`], orders nothing by itself).
pub struct Unordered {
    len: usize,
    exclusive: FxHashMap<Lock, FixedBitSet>,
    any: FxHashMap<Lock, FixedBitSet>,
}

impl Unordered {
    /// The index of `sets_held`, in their order; a lock `skip` says is left out orders no pair
    /// by its exclusive hold ([`LockSets::common_lock_except`]).
    pub fn new(sets: &LockSets, sets_held: &[SetId], skip: impl Fn(Lock) -> bool) -> Unordered {
        let len = sets_held.len();
        let mut index = Unordered {
            len,
            exclusive: FxHashMap::default(),
            any: FxHashMap::default(),
        };
        for (k, &held) in sets_held.iter().enumerate() {
            for h in sets.get(held).iter().filter(|h| !h.again) {
                let any = index.any.entry(h.lock);
                any.or_insert_with(|| FixedBitSet::with_capacity(len))
                    .insert(k);
                if exclusive(h, &skip) {
                    let exclusive = index.exclusive.entry(h.lock);
                    exclusive
                        .or_insert_with(|| FixedBitSet::with_capacity(len))
                        .insert(k);
                }
            }
        }
        index
    }

    /// The positions of the indexed sets that `held` shares no lock with, in order.
    pub fn with(&self, sets: &LockSets, held: SetId, skip: impl Fn(Lock) -> bool) -> FixedBitSet {
        let mut ordered = FixedBitSet::with_capacity(self.len);
        for h in sets.get(held).iter().filter(|h| !h.again) {
            if let Some(holders) = self.exclusive.get(&h.lock) {
                ordered.union_with(holders);
            }
            if exclusive(h, &skip) {
                if let Some(holders) = self.any.get(&h.lock) {
                    ordered.union_with(holders);
                }
            }
        }
        ordered.toggle_range(..);
        ordered
    }
}

/// Whether `h` orders the holders of its lock by itself: an exclusive first hold of a lock not
/// left out.
fn exclusive(h: &Held, skip: &impl Fn(Lock) -> bool) -> bool {
    h.mode == Mode::Exclusive && !h.again && !skip(h.lock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A set of at most four locks, each absent, read, written, or written twice.
    fn set(sets: &mut LockSets, code: u8) -> SetId {
        let mut v = Vec::new();
        for lock in 0..4u32 {
            let tokens: &[(Mode, bool)] = match (code >> (2 * lock)) & 3 {
                0 => &[],
                1 => &[(Mode::Shared, false)],
                2 => &[(Mode::Exclusive, false), (Mode::Shared, false)],
                _ => &[
                    (Mode::Exclusive, false),
                    (Mode::Shared, false),
                    (Mode::Exclusive, true),
                ],
            };
            v.extend(tokens.iter().map(|&(mode, again)| Held {
                lock: Lock(lock),
                mode,
                again,
            }));
        }
        sets.intern(v)
    }

    proptest! {
        /// The sets the index finds unordered with one are exactly those
        /// `LockSets::common_lock_except` finds share no lock with it.
        #[test]
        fn unordered_is_no_common_lock(
            codes in proptest::collection::vec(any::<u8>(), 0..12),
            query in any::<u8>(),
            skipped in 0..5u32,
        ) {
            let mut sets = LockSets::new();
            let held: Vec<SetId> = codes.iter().map(|&c| set(&mut sets, c)).collect();
            let query = set(&mut sets, query);
            let skip = |l: Lock| l.0 == skipped;
            let index = Unordered::new(&sets, &held, skip);
            let found: Vec<usize> = index.with(&sets, query, skip).ones().collect();
            let expected: Vec<usize> = (0..held.len())
                .filter(|&k| !sets.common_lock_except(query, held[k], skip))
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
