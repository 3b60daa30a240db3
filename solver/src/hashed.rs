//! A hash map that keeps each key's hash, for keys that are long lists.
//!
//! The memos of the check are keyed by lists: a location's signature, the groups of a listing,
//! the listing itself. One of them may hold the hundreds of thousands of accesses of a blob
//! that every module reaches. A standard map hashes every key again each time it grows, so
//! every small listing added after the big one paid for hashing the big one again (on the
//! `all` bench shape at 1M lines, 11 ms for each of the 80 planted races). Here a key is
//! hashed once, when it is inserted.
//!
//! It must never be iterated: nothing it holds may reach output in its hash order.

use std::hash::{BuildHasher, Hash};

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

/// A map from `K` to `V` whose entries keep their key's hash (see the module doc).
#[derive(Clone, Debug)]
pub struct HashedMap<K, V> {
    table: HashTable<(u64, K, V)>,
}

impl<K, V> Default for HashedMap<K, V> {
    fn default() -> Self {
        HashedMap {
            table: HashTable::new(),
        }
    }
}

impl<K: Hash + Eq, V> HashedMap<K, V> {
    /// The value of `key`, if any.
    pub fn get(&self, key: &K) -> Option<&V> {
        let hash = FxBuildHasher.hash_one(key);
        self.table
            .find(hash, |(h, k, _)| *h == hash && k == key)
            .map(|(_, _, v)| v)
    }

    /// The key equal to `key` kept in the map and its value, `value()` inserted if there was
    /// none: a map to `()` interns its keys.
    pub fn entry_or_insert_with(&mut self, key: K, value: impl FnOnce() -> V) -> (&K, &mut V) {
        let hash = FxBuildHasher.hash_one(&key);
        let entry = self
            .table
            .entry(hash, |(h, k, _)| *h == hash && *k == key, |&(h, _, _)| h);
        let (_, k, v) = entry.or_insert_with(|| (hash, key, value())).into_mut();
        (k, v)
    }

    /// Sets the value of `key`, replacing any it had.
    pub fn insert(&mut self, key: K, value: V) {
        let hash = FxBuildHasher.hash_one(&key);
        match self
            .table
            .entry(hash, |(h, k, _)| *h == hash && *k == key, |&(h, _, _)| h)
        {
            Entry::Occupied(mut known) => known.get_mut().2 = value,
            Entry::Vacant(vacant) => {
                vacant.insert((hash, key, value));
            }
        }
    }
}
