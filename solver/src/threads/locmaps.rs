//! Interned location maps: what the facts of one context say, location by location.
//!
//! A correlation fact ([`super::facts`]) is a *context* — the function it is seen from, the
//! locks held, the thread, the point, … — and a location, with whether some access behind it
//! writes and which accesses are behind it. The facts of one context are kept together as one
//! *location map*: the [`Loc`]s of that context, sorted by location. Maps and the sets of
//! accesses behind their locations are interned, so that the many contexts through which one
//! callee's locations reach a caller (a call made at fifty points, a thread started by every
//! callback of a library) share one map, and the operations on maps — union, and the image
//! through a call that [`super::facts`] computes — are paid once per distinct map rather than
//! once per context and location.
//!
//! An access set is kept as blocks of 64 access ids, a word of bits each ([`Block`]): where
//! every context reaches a blob that most functions access (a server's generic lists of
//! `void *`), each context's set holds most of the program's accesses, and a union of two such
//! sets merged a few words per 64 accesses instead of sorting all of them.
//!
//! This module knows nothing of threads, locks or calls (a location's lock set is an id it only
//! compares): it never decides a race.

use rustc_hash::FxHashMap;

use super::locksets::SetId;
use super::AccessId;
use crate::constraints::Rho;
use crate::ids::IndexVec;

crate::define_id!(
    /// An interned location map.
    pub struct LocsId, "locs";
);
crate::define_id!(
    /// An interned set of accesses: the accesses behind one location of a map.
    pub struct AccSetId, "accs";
);

/// One location of a map: the facts `ρ ▷ held` of one context for one flow component and
/// one lock set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    /// The representative of the flow component of the accessed labels.
    pub rho: Rho,
    /// The locks its accesses hold relative to the context's function (taken in it or below
    /// it, translated through each call like the labels), which the context does not say: the
    /// fact holds these and the context's ([`super::facts`]).
    pub held: SetId,
    /// The fact stands for the copy made by one run of a callee (see
    /// [`super::facts::FactCtx`]): it is compared only with facts that are not.
    pub internal: bool,
    /// Some access behind the fact writes.
    pub writes: bool,
    /// The accesses behind the fact.
    pub accesses: AccSetId,
}

/// Two words per location: maps are interned by the hash of all their locations, and a round
/// of the hasher per field was most of interning them.
impl std::hash::Hash for Loc {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(u64::from(self.rho.0) | (u64::from(self.held.0) << 32));
        state.write_u64(
            u64::from(self.accesses.0)
                | (u64::from(self.internal) << 32)
                | (u64::from(self.writes) << 33),
        );
    }
}

/// The accesses `64 * base + k` of a set, for each bit `k` of `bits`: a set is its blocks,
/// sorted by `base`, none empty.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Block {
    base: u32,
    bits: u64,
}

/// The blocks of `accesses`, sorted and without duplicates.
fn blocks_of(accesses: &[AccessId]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for a in accesses {
        let (base, bit) = (a.0 / 64, 1u64 << (a.0 % 64));
        match blocks.last_mut() {
            Some(b) if b.base == base => b.bits |= bit,
            _ => blocks.push(Block { base, bits: bit }),
        }
    }
    blocks
}

/// The union of two sets of blocks, by one merge.
fn merge_blocks(a: &[Block], b: &[Block]) -> Vec<Block> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].base.cmp(&b[j].base) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(Block {
                    base: a[i].base,
                    bits: a[i].bits | b[j].bits,
                });
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// What identifies a location in a map: its component, internal flag and locks.
pub type LocKey = (Rho, bool, SetId);

impl Loc {
    /// What identifies a location in a map (the rest is merged).
    pub fn key(&self) -> LocKey {
        (self.rho, self.internal, self.held)
    }
}

fn hash_of<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(value)
}

/// The interned maps and access sets of one propagation.
#[derive(Clone, Debug)]
pub struct LocMaps {
    maps: IndexVec<LocsId, Box<[Loc]>>,
    map_index: hashbrown::HashTable<LocsId>,
    sets: IndexVec<AccSetId, Box<[Block]>>,
    set_index: hashbrown::HashTable<AccSetId>,
    set_unions: FxHashMap<(AccSetId, AccSetId), AccSetId>,
    map_unions: FxHashMap<(LocsId, LocsId), LocsId>,
    /// [`LocMaps::union_all`]'s results, by the sorted maps merged (the base among them).
    map_unions_all: FxHashMap<Box<[LocsId]>, LocsId>,
    /// [`LocMaps::union_of_sets`]'s results of three sets or more, by the sorted sets.
    set_unions_all: FxHashMap<Box<[AccSetId]>, AccSetId>,
}

impl Default for LocMaps {
    fn default() -> Self {
        LocMaps::new()
    }
}

impl LocMaps {
    /// The map without locations.
    pub const EMPTY: LocsId = LocsId(0);

    pub fn new() -> LocMaps {
        let mut t = LocMaps {
            maps: IndexVec::new(),
            map_index: hashbrown::HashTable::new(),
            sets: IndexVec::new(),
            set_index: hashbrown::HashTable::new(),
            set_unions: FxHashMap::default(),
            map_unions: FxHashMap::default(),
            map_unions_all: FxHashMap::default(),
            set_unions_all: FxHashMap::default(),
        };
        t.intern_sorted(Vec::new());
        t
    }

    /// The locations of a map, sorted by [`Loc::key`], one entry per key.
    pub fn get(&self, id: LocsId) -> &[Loc] {
        &self.maps[id]
    }

    /// The accesses of a set, ascending.
    pub fn accesses(&self, id: AccSetId) -> impl Iterator<Item = AccessId> + '_ {
        self.sets[id].iter().flat_map(|b| {
            let mut bits = b.bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let k = bits.trailing_zeros();
                    bits &= bits - 1;
                    AccessId(b.base * 64 + k)
                })
            })
        })
    }

    /// Whether every access of set `id` is in one of the sets `by`.
    pub fn covered(&self, id: AccSetId, by: &[AccSetId]) -> bool {
        self.sets[id].iter().all(|b| {
            let mut bits = b.bits;
            for &other in by {
                let blocks = &self.sets[other];
                if let Ok(k) = blocks.binary_search_by_key(&b.base, |o| o.base) {
                    bits &= !blocks[k].bits;
                }
            }
            bits == 0
        })
    }

    /// How many maps and access sets there are, and the locations of all maps.
    pub fn sizes(&self) -> (usize, usize, usize) {
        let entries = self.maps.iter().map(|m| m.len()).sum();
        (self.maps.len(), self.sets.len(), entries)
    }

    /// The accesses of all access sets.
    pub fn accesses_in_sets(&self) -> usize {
        (self.sets.iter().flat_map(|s| s.iter()))
            .map(|b| b.bits.count_ones() as usize)
            .sum()
    }

    /// The interned set of `accesses`.
    pub fn access_set(&mut self, mut accesses: Vec<AccessId>) -> AccSetId {
        accesses.sort_unstable();
        self.intern_blocks(blocks_of(&accesses))
    }

    /// The interned set of `blocks` (sorted by base, none empty).
    fn intern_blocks(&mut self, blocks: Vec<Block>) -> AccSetId {
        let hash = hash_of(blocks.as_slice());
        let sets = &self.sets;
        if let Some(&id) = self
            .set_index
            .find(hash, |&id| *sets[id] == *blocks.as_slice())
        {
            return id;
        }
        let id = self.sets.push(blocks.into_boxed_slice());
        let sets = &self.sets;
        self.set_index
            .insert_unique(hash, id, |&id| hash_of(&*sets[id]));
        id
    }

    /// The union of two access sets.
    pub fn union_accesses(&mut self, a: AccSetId, b: AccSetId) -> AccSetId {
        if a == b {
            return a;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&u) = self.set_unions.get(&key) {
            return u;
        }
        let blocks = merge_blocks(&self.sets[a], &self.sets[b]);
        let u = self.intern_blocks(blocks);
        self.set_unions.insert(key, u);
        u
    }

    /// The interned map of `locs`: sorted by key, the entries of one key merged (some access
    /// writes if one of theirs does; the accesses of all).
    pub fn intern(&mut self, mut locs: Vec<Loc>) -> LocsId {
        locs.sort_unstable_by_key(Loc::key);
        self.intern_runs(locs)
    }

    /// [`LocMaps::intern`] of `sorted` and `others` together, where `sorted` is already sorted
    /// by key with one entry per key (a part of a map): only `others` is sorted, then merged in.
    pub fn intern_into(&mut self, sorted: &[Loc], mut others: Vec<Loc>) -> LocsId {
        if others.is_empty() {
            return self.intern_sorted(sorted.to_vec());
        }
        others.sort_unstable_by_key(Loc::key);
        let mut all: Vec<Loc> = Vec::with_capacity(sorted.len() + others.len());
        let (mut i, mut j) = (0, 0);
        while i < sorted.len() && j < others.len() {
            if sorted[i].key() <= others[j].key() {
                all.push(sorted[i]);
                i += 1;
            } else {
                all.push(others[j]);
                j += 1;
            }
        }
        all.extend_from_slice(&sorted[i..]);
        all.extend_from_slice(&others[j..]);
        self.intern_runs(all)
    }

    /// Interns `locs`, sorted by key, merging the entries of each key in one step
    /// ([`LocMaps::union_of_sets`]). Merged one entry at a time, a key of k entries interned
    /// k − 1 sets of 2, 3, … k accesses: a function of 8,000 accesses to one array under 16
    /// locks (one switch of an interpreter's loop) made 48,824 sets of 288 million accesses
    /// when its own accesses were seeded, and sharing grew as the square of the function.
    fn intern_runs(&mut self, locs: Vec<Loc>) -> LocsId {
        let mut merged: Vec<Loc> = Vec::with_capacity(locs.len());
        let mut sets: Vec<AccSetId> = Vec::new();
        let mut start = 0;
        while start < locs.len() {
            let key = locs[start].key();
            let end = start + locs[start..].iter().take_while(|l| l.key() == key).count();
            let mut loc = locs[start];
            if end - start > 1 {
                sets.clear();
                for l in &locs[start..end] {
                    loc.writes |= l.writes;
                    sets.push(l.accesses);
                }
                loc.accesses = self.union_of_sets(&mut sets);
            }
            merged.push(loc);
            start = end;
        }
        self.intern_sorted(merged)
    }

    fn intern_sorted(&mut self, locs: Vec<Loc>) -> LocsId {
        let hash = hash_of(locs.as_slice());
        let maps = &self.maps;
        if let Some(&id) = self
            .map_index
            .find(hash, |&id| *maps[id] == *locs.as_slice())
        {
            return id;
        }
        let id = self.maps.push(locs.into_boxed_slice());
        let maps = &self.maps;
        self.map_index
            .insert_unique(hash, id, |&id| hash_of(&*maps[id]));
        id
    }

    /// The union of two maps.
    pub fn union(&mut self, a: LocsId, b: LocsId) -> LocsId {
        if a == b || b == Self::EMPTY {
            return a;
        }
        if a == Self::EMPTY {
            return b;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&u) = self.map_unions.get(&key) {
            return u;
        }
        let mut v: Vec<Loc> = Vec::with_capacity(self.maps[a].len() + self.maps[b].len());
        v.extend_from_slice(&self.maps[a]);
        v.extend_from_slice(&self.maps[b]);
        let u = self.intern(v);
        self.map_unions.insert(key, u);
        u
    }

    /// The union of `base` and every map of `others`, made in one merge: a context that
    /// several callees' maps reach at once gets one new map, where folding [`LocMaps::union`]
    /// over them interned a map for each step, each a copy of everything merged so far. The
    /// access sets of a location several parts hold are merged in one step too
    /// ([`LocMaps::union_of_sets`]): merged pairwise, in the order a sort left the entries,
    /// each step interned a set, and the orders differed from one union to the next (streem:
    /// 11,847 access sets with the fold of maps, 283,053 with pairwise merges here, sharing 0.9
    /// → 7.6 s). Both are remembered by what they merged, as [`LocMaps::union`] is: one
    /// context's visits often bring the same maps again (streem, with the merges but without
    /// the memo: sharing 19 s).
    pub fn union_all(&mut self, base: LocsId, others: &[LocsId]) -> LocsId {
        let mut parts: Vec<LocsId> = others
            .iter()
            .copied()
            .filter(|&m| m != Self::EMPTY && m != base)
            .collect();
        parts.sort_unstable();
        parts.dedup();
        match parts.as_slice() {
            [] => return base,
            [m] => return self.union(base, *m),
            _ => {}
        }
        parts.push(base);
        parts.sort_unstable();
        if let Some(&u) = self.map_unions_all.get(parts.as_slice()) {
            return u;
        }
        let total = parts.iter().map(|&m| self.maps[m].len()).sum();
        let mut all: Vec<Loc> = Vec::with_capacity(total);
        for &m in &parts {
            all.extend_from_slice(&self.maps[m]);
        }
        // Each part is sorted: the sort merges runs.
        all.sort_by_key(Loc::key);
        let u = self.intern_runs(all);
        self.map_unions_all.insert(parts.into_boxed_slice(), u);
        u
    }

    /// The union of several access sets: the pairwise union, remembered, when there are at
    /// most two distinct ones, else one set made of all of them.
    fn union_of_sets(&mut self, sets: &mut Vec<AccSetId>) -> AccSetId {
        sets.sort_unstable();
        sets.dedup();
        match *sets.as_slice() {
            [a] => a,
            [a, b] => self.union_accesses(a, b),
            _ => {
                if let Some(&u) = self.set_unions_all.get(sets.as_slice()) {
                    return u;
                }
                let total = sets.iter().map(|&s| self.sets[s].len()).sum();
                let mut all: Vec<Block> = Vec::with_capacity(total);
                for &s in sets.iter() {
                    all.extend_from_slice(&self.sets[s]);
                }
                // Each set is sorted: the sort merges runs.
                all.sort_by_key(|b| b.base);
                let mut blocks: Vec<Block> = Vec::with_capacity(all.len());
                for b in all {
                    match blocks.last_mut() {
                        Some(last) if last.base == b.base => last.bits |= b.bits,
                        _ => blocks.push(b),
                    }
                }
                let u = self.intern_blocks(blocks);
                self.set_unions_all.insert(sets.as_slice().into(), u);
                u
            }
        }
    }

    /// The location of `map` with this key, if any.
    pub fn find(&self, map: LocsId, rho: Rho, internal: bool, held: SetId) -> Option<&Loc> {
        let locs = &self.maps[map];
        locs.binary_search_by_key(&(rho, internal, held), Loc::key)
            .ok()
            .map(|k| &locs[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(t: &mut LocMaps, rho: u32, writes: bool, accesses: &[u32]) -> Loc {
        let accesses = t.access_set(accesses.iter().map(|&a| AccessId(a)).collect());
        Loc {
            rho: Rho(rho),
            held: SetId(0),
            internal: false,
            writes,
            accesses,
        }
    }

    #[test]
    fn interning_merges_the_entries_of_one_location_and_shares_equal_maps() {
        let mut t = LocMaps::new();
        let (a, b, c) = (
            loc(&mut t, 3, false, &[1]),
            loc(&mut t, 3, true, &[2]),
            loc(&mut t, 1, false, &[5]),
        );
        let m = t.intern(vec![a, b, c]);
        let locs = t.get(m).to_vec();
        assert_eq!(locs.len(), 2);
        assert_eq!(locs[0].rho, Rho(1));
        assert!(locs[1].writes);
        assert_eq!(
            t.accesses(locs[1].accesses).collect::<Vec<_>>(),
            [AccessId(1), AccessId(2)]
        );
        let (c2, a2, b2) = (
            loc(&mut t, 1, false, &[5]),
            loc(&mut t, 3, false, &[1]),
            loc(&mut t, 3, true, &[2]),
        );
        assert_eq!(t.intern(vec![c2, b2, a2]), m);
    }

    #[test]
    fn union_is_the_merge_of_both_maps() {
        let mut t = LocMaps::new();
        let x = loc(&mut t, 1, false, &[1]);
        let y = loc(&mut t, 1, true, &[2]);
        let z = loc(&mut t, 2, false, &[3]);
        let m1 = t.intern(vec![x]);
        let m2 = t.intern(vec![y, z]);
        let u = t.union(m1, m2);
        assert_eq!(t.union(m2, m1), u);
        assert_eq!(t.union(u, LocMaps::EMPTY), u);
        let l = *t.find(u, Rho(1), false, SetId(0)).unwrap();
        assert!(l.writes);
        assert_eq!(
            t.accesses(l.accesses).collect::<Vec<_>>(),
            [AccessId(1), AccessId(2)]
        );
        assert!(t.find(u, Rho(2), true, SetId(0)).is_none());
    }

    #[test]
    fn union_all_is_the_fold_of_union_and_interns_only_the_result() {
        let mut t = LocMaps::new();
        let parts: Vec<LocsId> = (0..4)
            .map(|k| {
                let l = loc(&mut t, k, k == 2, &[k, 10]);
                t.intern(vec![l])
            })
            .collect();
        let (base, others) = (parts[0], &parts[1..]);
        let maps_before = t.sizes().0;
        let all = t.union_all(
            base,
            &[others[0], LocMaps::EMPTY, others[1], others[2], others[0]],
        );
        assert_eq!(
            t.sizes().0,
            maps_before + 1,
            "one map made, not one per step"
        );
        let folded = others.iter().fold(base, |m, &o| t.union(m, o));
        assert_eq!(all, folded);
        assert_eq!(t.get(all).len(), 4);
        assert!(t.find(all, Rho(2), false, SetId(0)).unwrap().writes);
        assert_eq!(t.union_all(base, &[]), base);
        assert_eq!(t.union_all(base, &[base, LocMaps::EMPTY]), base);
    }

    #[test]
    fn union_all_merges_the_access_sets_of_one_location_in_one_step() {
        let mut t = LocMaps::new();
        // One location in four maps, behind four different access sets.
        let parts: Vec<LocsId> = (0..4)
            .map(|k| {
                let l = loc(&mut t, 7, k == 3, &[k, 10 + k]);
                t.intern(vec![l])
            })
            .collect();
        let (maps_before, sets_before, _) = t.sizes();
        let all = t.union_all(parts[0], &parts[1..]);
        let (maps, sets, _) = t.sizes();
        assert_eq!(
            (maps, sets),
            (maps_before + 1, sets_before + 1),
            "one map and one access set made, not one per pairwise step"
        );
        let l = t.get(all)[0];
        assert!(l.writes);
        let accesses: Vec<u32> = t.accesses(l.accesses).map(|a| a.0).collect();
        assert_eq!(accesses, [0, 1, 2, 3, 10, 11, 12, 13]);
        assert_eq!(t.union_all(parts[3], &[parts[1], parts[0], parts[2]]), all);
        assert_eq!(t.sizes().0, maps_before + 1);
    }

    #[test]
    fn interning_merges_the_entries_of_one_location_in_one_step() {
        let mut t = LocMaps::new();
        // A function's own accesses: many entries of one location.
        let locs: Vec<Loc> = (0..50).map(|k| loc(&mut t, 4, k == 9, &[k])).collect();
        let (_, sets_before, _) = t.sizes();
        let m = t.intern(locs);
        let (_, sets, _) = t.sizes();
        assert_eq!(
            sets,
            sets_before + 1,
            "one access set made, not one per entry"
        );
        let l = t.get(m)[0];
        assert!(l.writes);
        assert_eq!(t.accesses(l.accesses).count(), 50);
    }

    #[test]
    fn access_sets_in_blocks_are_the_sets_of_their_accesses() {
        let mut t = LocMaps::new();
        let ids = |v: &[u32]| v.iter().map(|&a| AccessId(a)).collect::<Vec<_>>();
        let a = t.access_set(ids(&[200, 0, 63, 64, 0, 127, 4_000_000_000]));
        let b = t.access_set(ids(&[1, 64, 128, 200, 4_000_000_001]));
        let c = t.access_set(ids(&[63, 65]));
        assert_eq!(
            t.accesses(a).collect::<Vec<_>>(),
            ids(&[0, 63, 64, 127, 200, 4_000_000_000])
        );
        assert_eq!(t.access_set(ids(&[127, 64, 63, 0, 200, 4_000_000_000])), a);
        let ab = t.union_accesses(a, b);
        assert_eq!(
            t.accesses(ab).collect::<Vec<_>>(),
            ids(&[0, 1, 63, 64, 127, 128, 200, 4_000_000_000, 4_000_000_001])
        );
        let abc = t.union_of_sets(&mut vec![c, b, a]);
        assert_eq!(
            t.accesses(abc).collect::<Vec<_>>(),
            ids(&[
                0,
                1,
                63,
                64,
                65,
                127,
                128,
                200,
                4_000_000_000,
                4_000_000_001
            ])
        );
        assert_eq!(t.union_accesses(ab, c), abc);
        assert_eq!(t.accesses_in_sets(), 6 + 5 + 2 + 9 + 10);
        assert_eq!(t.sizes().1, 5, "a, b, c and the two unions");
        assert!(t.covered(a, &[ab]));
        let just_65 = t.access_set(ids(&[65]));
        assert!(t.covered(c, &[a, just_65]));
        assert!(!t.covered(c, &[a, b]));
        assert!(!t.covered(abc, &[ab]));
    }
}
