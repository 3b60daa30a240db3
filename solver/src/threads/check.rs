//! Sharing and consistent correlation for C (paper §3.1, last paragraphs, and §3.2).
//!
//! Every location is checked at its home ([`super::privacy`]): `main` for globals and escaping
//! memory, or the function of whose run it is private. There every fact says which thread
//! accessed the location — the one running the home function (`Current`) or one it started
//! (`Forked`) — where, and holding which locks.
//!
//! Two accesses *conflict* when at least one writes and their threads may run at the same time
//! ([`super::mhp`]): a thread started at a point is concurrent with what its parent does while
//! it runs, with the threads started while it runs, and with itself when it is started again
//! before it is joined. This is the paper's sharing rule — only what the parent does after the
//! fork meets the child — kept per access instead of per location, and with joins. It holds in
//! every thread, not only in the home's: two accesses under one thread the home started are
//! also compared as that thread's function orders them, what it did before starting a child or
//! after joining it ([`super::nest`], `Checker::ordered_below`).
//!
//! The paper then requires one lock held at *all* accesses of a shared location,
//! `|⋂ S(C, ρ)| ≥ 1`. Here the lock sets are compared per conflicting pair instead: a location
//! guarded by one lock while threads run and by another after they are joined is not a race.
//! For a single phase the two rules agree. Copies of an allocation made by different calls are
//! checked separately.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use fixedbitset::FixedBitSet;
use rustc_hash::{FxHashMap, FxHashSet};

use super::facts::{CtxId, Propagated, Thread};
use super::locksets::{Held, LockSets, SetId};
use super::locmaps::{AccSetId, Loc, LocsId};
use super::mhp::{HandleSetId, HandleSets, Mhp, Point, SiteSetId, SiteSets};
use super::nest::{Level, NestId, Nests};
use super::phases::Phase;
use super::privacy::Homes;
use super::unordered::Unordered;
use super::{AccessId, FnId, ThreadProgram};
use crate::budget::Stop;
use crate::cfl::Components;
use crate::constraints::{Lock, Rho, Site};
use crate::hashed::HashedMap;
use crate::ids::{Idx, IndexVec};
use crate::stats::Stats;
use crate::technique::{Technique, Techniques};

/// One access of a racy location, as the thread analysis sees it at the location's home.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RaceAccess {
    pub access: AccessId,
    /// The locks held (linear lock class representatives), as tokens: a lock held exclusively
    /// has both of its tokens, one held for reading only its shared token.
    pub held: std::sync::Arc<[Held]>,
    /// The thread, relative to a run of `home`.
    pub thread: Thread,
    /// In a racing pair: this access and another may happen at the same time, one of them
    /// writing, without a common lock. The other accesses of the location are context.
    pub racing: bool,
}

/// A location that two threads may access without a common lock.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RaceWarning {
    pub rho: Rho,
    /// The function whose run the location belongs to (`main` for global memory).
    pub home: FnId,
    /// Shared by the locations of one flow component found racing in the same function.
    pub accesses: Accesses,
}

/// What makes facts of one location interchangeable for the pairwise check: their context,
/// internal copy, lockset and whether it writes.
type ClassKey = (Ctx, bool, SetId, bool);

/// The accesses of a racy location, shared by the locations with the same verdict.
pub type Accesses = std::sync::Arc<[RaceAccess]>;

/// Which thread accesses, where, and after what, in one function: what orders two accesses
/// (or two lock calls, for the deadlock check).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ctx {
    pub thread: Thread,
    pub point: Point,
    pub joined: HandleSetId,
    pub inside: SiteSetId,
    pub nest: NestId,
    /// The barrier phase of the access ([`super::phases`]); unknown for a lock call.
    pub phase: Phase,
}

impl Ctx {
    /// A fact's context in the function of a thread it came out of, with its deeper levels.
    fn of_level(level: &Level, nest: NestId, phase: Phase) -> Ctx {
        Ctx {
            thread: level.thread,
            point: level.point,
            joined: level.joined,
            inside: level.inside,
            nest,
            phase,
        }
    }
}

/// One location of a context map: the `index`-th of map `map` (a fact for each context with
/// that map), with whether some access behind the location writes in that map. A component
/// whose facts the map leaves implicit ([`Propagated::deferred_into`]) has the entries of the
/// sticky components it is made from, and its write flag in a map is that of all of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Entry {
    map: LocsId,
    index: u32,
    writes: bool,
}

/// The entries of a component at `main`, as [`Checker::sources`] reads each copy's beside them.
struct HomeEntries<'e> {
    /// Sorted.
    entries: &'e [Entry],
    /// Whether `entries` are the component's own, none deferred into another's.
    own: bool,
    /// With `own`: the entries that merging with the component's entries turns into writes,
    /// as merged, when no entry of another component is in their group ([`entries_beside`]).
    widened: Vec<Entry>,
}

impl<'e> HomeEntries<'e> {
    /// The entries `at_home` (sorted), with whether they are the component's own.
    fn new(
        at_home: &'e [Entry],
        own: bool,
        group: impl Fn(Entry) -> (LocsId, bool),
    ) -> HomeEntries<'e> {
        debug_assert!(at_home.is_sorted());
        let widened = if own {
            let mut merged = at_home.to_vec();
            merge_writes(&mut merged, group);
            merged.retain(|e| e.writes && at_home.binary_search(e).is_err());
            merged
        } else {
            Vec::new()
        };
        HomeEntries {
            entries: at_home,
            own,
            widened,
        }
    }

    /// Whether the home has entry `e`.
    fn has(&self, e: &Entry) -> bool {
        self.entries.binary_search(e).is_ok()
    }
}

/// Gives each of `entries` the write flag of any of its group (`group`: its map and whether
/// the location is an internal copy), then sorts them and drops repeats.
fn merge_writes(entries: &mut Vec<Entry>, group: impl Fn(Entry) -> (LocsId, bool)) {
    let mut writes: FxHashMap<(LocsId, bool), bool> = FxHashMap::default();
    for &e in entries.iter() {
        *writes.entry(group(e)).or_default() |= e.writes;
    }
    for e in entries.iter_mut() {
        e.writes = writes[&group(*e)];
    }
    entries.sort_unstable();
    entries.dedup();
}

/// The entries `others` merged with those of the home (`at_home`, the component's own) by
/// [`merge_writes`], but those the home has, as [`Checker::sources`] needs them for a source
/// whose facts are deferred into the home's component. It reads the home's entries only in the
/// groups where `others` has entries, where the merged write flags depend on them; in the
/// other groups the merge changes the same entries for every source (`at_home.widened`). A
/// blob that the objects of hundreds of allocation sites are deferred into was read again
/// whole for each of their copies.
fn entries_beside(
    mut others: Vec<Entry>,
    at_home: &HomeEntries,
    group: impl Fn(Entry) -> (LocsId, bool),
) -> Vec<Entry> {
    let mut groups: Vec<(LocsId, bool)> = others.iter().map(|&e| group(e)).collect();
    groups.sort_unstable();
    groups.dedup();
    let home = at_home.entries;
    for &(map, internal) in &groups {
        let lo = home.partition_point(|e| e.map < map);
        let len = home[lo..].partition_point(|e| e.map == map);
        others.extend(
            home[lo..lo + len]
                .iter()
                .filter(|&&e| group(e).1 == internal),
        );
    }
    merge_writes(&mut others, &group);
    others.extend(
        at_home
            .widened
            .iter()
            .filter(|&&e| groups.binary_search(&group(e)).is_err()),
    );
    others.retain(|e| !at_home.has(e));
    others
}

/// The labels of `set` as bits: [`Checker::index`] asks of each of millions of locations.
fn bits_of(set: &FxHashSet<Rho>) -> FixedBitSet {
    let len = set.iter().map(|r| r.0 as usize + 1).max().unwrap_or(0);
    let mut bits = FixedBitSet::with_capacity(len);
    for r in set {
        bits.insert(r.0 as usize);
    }
    bits
}

/// Runs of values by key, for the indexes of [`Checker::index`]: pushed as pairs, then sorted
/// once by key ([`SortedRuns::freeze`]), each key's values in the order pushed. A hash map of
/// vectors cost an allocation and, once the program outgrew the caches, a miss for each of the
/// millions of keys; a sort reads and writes memory in order. A key is a pair whose first id
/// is dense: `starts` gives the run of each first id, so a lookup searches only that id's
/// keys, not all of them (a binary search of millions of keys missed the cache at each of its
/// twenty steps).
struct SortedRuns<A, B, V> {
    keys: Vec<(A, B)>,
    values: Vec<V>,
    /// Per first id `a`: the position of its first key; `starts[a + 1]` ends its run.
    starts: Vec<u32>,
}

impl<A, B, V> Default for SortedRuns<A, B, V> {
    fn default() -> Self {
        SortedRuns {
            keys: Vec::new(),
            values: Vec::new(),
            starts: Vec::new(),
        }
    }
}

impl<A: Idx, B: Ord + Copy, V: Copy> SortedRuns<A, B, V> {
    fn push(&mut self, key: (A, B), value: V) {
        self.keys.push(key);
        self.values.push(value);
    }

    /// Sorts the pairs by key, stably; done once, after the last [`SortedRuns::push`] and before
    /// the first [`SortedRuns::get`].
    fn freeze(&mut self) {
        let mut pairs: Vec<((A, B), V)> = std::mem::take(&mut self.keys)
            .into_iter()
            .zip(std::mem::take(&mut self.values))
            .collect();
        pairs.sort_by_key(|&(key, _)| key);
        (self.keys, self.values) = pairs.into_iter().unzip();
        let ids = self.keys.last().map_or(0, |(a, _)| a.index() + 1);
        let total = u32::try_from(self.keys.len()).expect("fewer than 2^32 index entries");
        self.starts = Vec::with_capacity(ids + 1);
        for (at, (a, _)) in self.keys.iter().enumerate() {
            while self.starts.len() <= a.index() {
                self.starts.push(at as u32);
            }
        }
        self.starts.push(total);
    }

    /// The values of `key`, in the order pushed; `None` without any.
    fn get(&self, key: (A, B)) -> Option<&[V]> {
        let a = key.0.index();
        if a + 1 >= self.starts.len() {
            return None;
        }
        let (lo, hi) = (self.starts[a] as usize, self.starts[a + 1] as usize);
        let run = &self.keys[lo..hi];
        let from = run.partition_point(|&(_, b)| b < key.1);
        let to = from + run[from..].partition_point(|&(_, b)| b == key.1);
        (to > from).then(|| &self.values[lo + from..lo + to])
    }
}

/// What decides a location's racing classes: each map holding it, with its internal and write
/// flags there (sorted). Locations with the same signature at one function get the same
/// classes.
type Signature = Vec<(LocsId, bool, bool)>;

/// A copy's verdict at a function by the signature of the facts at the home and the part of
/// the copy's that the home lacks ([`Checker::copy_memo`]).
type CopyKey = (FnId, Signature, Signature);

/// The racing classes of a verdict, shared by the locations that get it: an index into
/// `Checker::racing_sets`, where 0 is the empty set.
type Racing = u32;

/// How the facts of one map's contexts at a function are listed: `(thread, locks, context)`
/// for each, deduplicated.
type ListedAs = Rc<[(Thread, SetId, bool)]>;

/// What [`Checker::listed_as`] depends on: the function, a map, a location's internal and
/// write flags there, and the verdicts' racing classes.
type ListedKey = (FnId, LocsId, bool, bool, Vec<Racing>);

/// A context, with the index of its class in the caller's list.
type Member = (Ctx, usize);

/// What [`Concurrency::concurrent_here`] and the phases decide on: a context but its nest.
type Top = (Thread, Point, HandleSetId, SiteSetId, Phase);

struct Checker<'a> {
    conc: Concurrency<'a>,
    sets: &'a LockSets,
    facts: &'a Propagated,
    techniques: Techniques,
    /// The locations of the context maps of each function that is some label's home, by
    /// (component, function).
    entries: SortedRuns<Rho, FnId, Entry>,
    /// The contexts of each function with each map.
    ctxs_of: SortedRuns<FnId, LocsId, CtxId>,
    /// The functions whose contexts `ctxs_of` has.
    ctxs_indexed: FxHashSet<FnId>,
    /// The contexts ranked in the order of their [`Ctx`] ([`CtxRanks`]).
    ranks: CtxRanks,
    /// The racing classes of each signature at a function.
    racing_memo: RefCell<HashedMap<(FnId, Signature), Racing>>,
    /// The verdict of each copy at a function by the signature of the facts at the home and
    /// what the copy adds ([`Checker::racing_copy`]): the components of one object reached
    /// under many names have the same facts at the home and the same copies.
    copy_memo: RefCell<HashedMap<CopyKey, Racing>>,
    /// Per (carriers, function): the facts a component has from its carriers there, as the
    /// base of its verdict ([`Checker::carried_race_free`]).
    carried_bases: RefCell<FxHashMap<(Vec<Rho>, FnId), CarriedBase>>,
    /// Whether two tops at a function may meet ([`Checker::tops_concurrent`]).
    tops_memo: RefCell<FxHashMap<(FnId, Top, Top), bool>>,
    /// The racing classes of each verdict, by [`Racing`] id.
    racing_sets: RefCell<Vec<RacingSet>>,
    /// How the facts of a location of a map, with its internal and write flags, in verdicts
    /// with these racing classes, are listed at a function ([`Checker::listing`]).
    listed_memo: RefCell<FxHashMap<ListedKey, ListedAs>>,
    /// Every listing made ([`Checker::share`]).
    listings: RefCell<HashedMap<Accesses, ()>>,
    /// Each listing by the groups it was made of ([`Checker::listing`]): the components of a
    /// blob, each with its own verdict, group the same accesses the same way, and each listing
    /// of one names hundreds of thousands of accesses.
    listing_memo: RefCell<HashedMap<(FnId, ListingGroups), Accesses>>,
    /// The program's entry: where a signal handler can only interrupt its own thread.
    main: FnId,
    /// The signal handlers' fork sites ([`ThreadProgram::signal_sites`]). A fact under one is
    /// the handler's own (or its callees'): one of a thread the handler starts names that
    /// thread's fork site.
    handlers: FxHashSet<Site>,
    /// The components all of whose checked locations are `volatile sig_atomic_t` objects.
    signal_comps: FxHashSet<Rho>,
    /// Whether the component being decided is one of `signal_comps`.
    signal_atomic_now: std::cell::Cell<bool>,
    /// The mask lock of each handler whose signal some call blocks
    /// ([`ThreadProgram::masked_handlers`]).
    masked: FxHashMap<Site, Lock>,
    /// Every mask lock: never a common lock of two accesses ([`Checker::common_lock`]).
    mask_locks: FxHashSet<Lock>,
}

/// Each context's [`Ctx`] by its rank in their order (equal ones share a rank), so that a class
/// key `(ctx, internal, held, writes)` packs into one integer ordered as the key is.
struct CtxRanks {
    rank: IndexVec<CtxId, u32>,
    by_rank: Vec<Ctx>,
}

impl CtxRanks {
    fn new(facts: &Propagated) -> CtxRanks {
        let mut order: Vec<CtxId> = (0..facts.ctxs.len()).map(CtxId::new).collect();
        order.sort_unstable_by(|a, b| facts.ctxs[*a].ctx.cmp(&facts.ctxs[*b].ctx));
        let mut rank = IndexVec::from_elem_n(0, facts.ctxs.len());
        let mut by_rank: Vec<Ctx> = Vec::new();
        for id in order {
            let ctx = facts.ctxs[id].ctx;
            if by_rank.last() != Some(&ctx) {
                by_rank.push(ctx);
            }
            rank[id] = (by_rank.len() - 1) as u32;
        }
        CtxRanks { rank, by_rank }
    }

    /// The class key of `ctx` with these flags and locks as `rank·2³³ + internal·2³² +
    /// held·2 + writes`: lock sets and contexts are interned, far fewer than 2³¹ of each.
    fn packed(&self, ctx: CtxId, internal: bool, held: SetId, writes: bool) -> u64 {
        let held = held.index() as u64;
        debug_assert!(held < 1 << 31);
        (u64::from(self.rank[ctx]) << 33)
            | (u64::from(internal) << 32)
            | (held << 1)
            | u64::from(writes)
    }

    fn key(&self, packed: u64) -> ClassKey {
        let ctx = self.by_rank[(packed >> 33) as usize];
        let held = SetId::new(((packed >> 1) & ((1 << 31) - 1)) as usize);
        (ctx, packed & (1 << 32) != 0, held, packed & 1 != 0)
    }
}

/// Which components the check reads at each function where it reads facts
/// ([`Homes::checked_at`]): at `main` every one; elsewhere those of the labels whose home the
/// function is, or whose owner it is when their home is `main`, with the sticky components
/// carrying them ([`Propagated::deferred_into`]). Propagation keeps only these at each such
/// function (`facts::Prop::held_where_checked`), and the check asserts that it reads nothing
/// else there (`Checker::entries_of`, `Checker::carried_race_free`): a component read where
/// it was dropped would look race-free. A function that allocates what it accesses is the home
/// of that object, and each of an interpreter's thousands of such functions reaches every
/// module's locations: kept whole, their maps, split by the locks of their locations, made as
/// many contexts as when the contexts held those locks.
#[derive(Clone, Debug, Default)]
pub struct Reads {
    main: Option<FnId>,
    /// `(function, component)` for every function but `main`, sorted.
    away: Vec<(FnId, Rho)>,
}

impl Reads {
    /// What the check reads of the labels `checked`.
    pub fn new(
        checked: &[Rho],
        comps: &Components,
        homes: &Homes,
        main: FnId,
        deferred_into: &FxHashMap<Rho, Vec<Rho>>,
    ) -> Reads {
        let mut away: Vec<(FnId, Rho)> = Vec::new();
        for &r in checked {
            let comp = comps.of[r];
            let home = homes.home_of(r).unwrap_or(main);
            let owner = homes.owner_of(r).filter(|_| home == main);
            for f in [Some(home), owner].into_iter().flatten() {
                if f != main {
                    away.push((f, comp));
                    let carriers = deferred_into.get(&comp).into_iter().flatten();
                    away.extend(carriers.map(|&x| (f, x)));
                }
            }
        }
        away.sort_unstable();
        away.dedup();
        Reads {
            main: Some(main),
            away,
        }
    }

    /// The components read at `f`, sorted; `None` at `main`, which reads all of them.
    pub fn at(&self, f: FnId) -> Option<Vec<Rho>> {
        if Some(f) == self.main {
            return None;
        }
        let from = self.away.partition_point(|&(g, _)| g < f);
        let to = self.away.partition_point(|&(g, _)| g <= f);
        Some(self.away[from..to].iter().map(|&(_, x)| x).collect())
    }

    /// Whether the check reads component `comp` at `f`.
    pub fn reads(&self, f: FnId, comp: Rho) -> bool {
        Some(f) == self.main || self.away.binary_search(&(f, comp)).is_ok()
    }
}

/// Whether two contexts of one function may be at the same time in two threads: what the race
/// check asks of two accesses, and the deadlock check of two lock calls.
pub struct Concurrency<'a> {
    pub mhp: &'a Mhp,
    /// The sets the contexts' `joined`, `inside` and `nest` ids stand for.
    pub handle_sets: &'a HandleSets,
    pub site_sets: &'a SiteSets,
    pub nests: &'a Nests,
    /// [`Technique::Sharing`] off: every two contexts are concurrent.
    pub techniques: Techniques,
}

/// What the race check reads.
pub struct RaceInputs<'a> {
    pub program: &'a ThreadProgram,
    pub mhp: &'a Mhp,
    pub homes: &'a Homes,
    pub sets: &'a LockSets,
    /// Every fact, with the sets and nests its contexts name.
    pub facts: &'a Propagated,
    /// The flow components facts are kept at ([`super::locmaps::Loc::rho`]).
    pub comps: &'a Components,
    /// [`Technique::Sharing`] off: every pair of accesses is concurrent, even in one thread.
    /// [`Technique::DownFork`] off: a callee's own location is one location for all its runs, so
    /// internal copies ([`super::locmaps::Loc::internal`]) are compared too.
    pub techniques: Techniques,
    pub stats: &'a Stats,
}

/// Checks every location of `p.checked` and returns the warnings, sorted; with the stop, when the
/// run's budget ran out before every location was checked ([`crate::budget`]).
pub fn races(inputs: RaceInputs<'_>) -> (Vec<RaceWarning>, Option<Stop>) {
    let RaceInputs {
        program: p,
        mhp,
        homes,
        sets,
        facts,
        comps,
        techniques,
        stats,
    } = inputs;
    let Some(main) = p.main else {
        return (Vec::new(), None);
    };
    let local: FxHashSet<Rho> = p.thread_local.iter().copied().collect();
    let mut checked: Vec<Rho> = p.checked.to_vec();
    checked.sort();
    checked.dedup();
    // The functions where labels are checked: their homes, their owners and `main`.
    let wanted: FxHashSet<Rho> = with_carriers(checked.iter().map(|&r| comps.of[r]), facts);
    let at = homes.checked_at(&checked, main);
    let mut checker = Checker {
        conc: Concurrency {
            mhp,
            handle_sets: &facts.handle_sets,
            site_sets: &facts.site_sets,
            nests: &facts.nests,
            techniques,
        },
        sets,
        facts,
        techniques,
        entries: SortedRuns::default(),
        ctxs_of: SortedRuns::default(),
        ctxs_indexed: FxHashSet::default(),
        ranks: CtxRanks::new(facts),
        racing_memo: RefCell::default(),
        copy_memo: RefCell::default(),
        carried_bases: RefCell::default(),
        racing_sets: RefCell::new(vec![RacingSet::default()]),
        tops_memo: RefCell::default(),
        listed_memo: RefCell::default(),
        listings: RefCell::default(),
        listing_memo: RefCell::default(),
        main,
        handlers: p.signal_sites.iter().copied().collect(),
        signal_comps: signal_components(p, comps, &checked),
        signal_atomic_now: std::cell::Cell::new(false),
        masked: p.masked_handlers.iter().copied().collect(),
        mask_locks: p.masked_handlers.iter().map(|&(_, l)| l).collect(),
    };
    let wanted_bits = bits_of(&wanted);
    // At a function other than `main`, the maps hold only what the check reads there
    // ([`Reads`]): indexing them on every wanted component indexes that.
    for f in at {
        checker.index(f, &wanted_bits);
    }
    // The copies made at the root are made of the facts of other components there.
    let sources: FxHashSet<Rho> = with_carriers(facts.tagged.sources(), facts)
        .into_iter()
        .filter(|x| !wanted.contains(x))
        .collect();
    checker.index(main, &bits_of(&sources));
    checker.entries.freeze();
    checker.ctxs_of.freeze();
    let tagged = &facts.tagged;
    // Labels of one component have the same facts: those checked at the same home get the same
    // verdict there, and those with the same owner the same verdict at the owner, each computed
    // once; the warnings of one verdict share its list of accesses.
    // Per (component, home): `None` when the component has no facts there (not checked), else
    // its verdict.
    let mut at_home_verdicts: FxHashMap<(Rho, FnId), Option<Option<Accesses>>> =
        FxHashMap::default();
    let mut owner_verdicts: FxHashMap<(Rho, FnId), Option<Accesses>> = FxHashMap::default();
    let mut warnings = Vec::new();
    let mut stopped = None;
    for (done, &rho) in checked.iter().enumerate() {
        if done % 256 == 0 {
            stats.progress(done, checked.len());
        }
        // A check out of budget keeps the warnings it has found: each is a race of its own.
        if let Some(limit) = crate::budget::reached() {
            stopped = Some(Stop {
                limit,
                phase: Some(super::PHASE_CHECK),
            });
            break;
        }
        if local.contains(&rho) {
            continue;
        }
        let comp = comps.of[rho];
        let home = homes.home_of(rho).unwrap_or(main);
        checker
            .signal_atomic_now
            .set(checker.signal_comps.contains(&comp));
        let verdict = at_home_verdicts.entry((comp, home)).or_insert_with(|| {
            if checker.carried_race_free(comp, home) {
                return Some(None);
            }
            // A label without facts at its home (untagged, or tagged at the root) is not
            // checked.
            let at_home = match checker.entries_of(comp, home) {
                Some(entries) => entries,
                None if home == main && tagged.reaches(comp) => Vec::new(),
                None => return None,
            };
            Some(checker.at_home(comp, home, &at_home, main))
        });
        let Some(verdict) = verdict else {
            continue;
        };
        let found = verdict.clone().map(|accesses| (home, accesses));
        // Labels checked at `main` that belong to another function are also checked there,
        // where the accesses of one run of it meet (above it they become internal copies).
        let found = found.or_else(|| {
            let owner = homes.owner_of(rho).filter(|_| home == main)?;
            owner_verdicts
                .entry((comp, owner))
                .or_insert_with(|| {
                    let group = checker.entries_of(comp, owner)?;
                    let racing = checker.racing(owner, &group);
                    (racing != NO_RACE).then(|| {
                        let verdicts = group.iter().map(|&e| (e, vec![racing])).collect();
                        checker.listing(owner, &verdicts)
                    })
                })
                .clone()
                .map(|accesses| (owner, accesses))
        });
        if let Some((home, accesses)) = found {
            warnings.push(RaceWarning {
                rho,
                home,
                accesses,
            });
        }
    }
    stats.count(
        "check: pairs of tops decided",
        checker.tops_memo.borrow().len(),
    );
    warnings.sort();
    (warnings, stopped)
}

/// The components whose every checked location ([`ThreadProgram::signal_atomic`]) is a
/// `volatile sig_atomic_t` object.
fn signal_components(p: &ThreadProgram, comps: &Components, checked: &[Rho]) -> FxHashSet<Rho> {
    if p.signal_atomic.is_empty() {
        return FxHashSet::default();
    }
    let mut all_signal: FxHashMap<Rho, bool> = FxHashMap::default();
    for &r in checked {
        let signal = p.signal_atomic.binary_search(&r).is_ok();
        *all_signal.entry(comps.of[r]).or_insert(true) &= signal;
    }
    all_signal
        .into_iter()
        .filter_map(|(comp, signal)| signal.then_some(comp))
        .collect()
}

/// The components `comps` with the sticky components whose facts some of them have without
/// the maps saying so ([`Propagated::deferred_into`]): the check reads theirs too.
fn with_carriers(comps: impl Iterator<Item = Rho>, facts: &Propagated) -> FxHashSet<Rho> {
    let mut out = FxHashSet::default();
    for comp in comps {
        out.insert(comp);
        out.extend(
            facts
                .deferred_into
                .get(&comp)
                .into_iter()
                .flatten()
                .copied(),
        );
    }
    out
}

impl Checker<'_> {
    /// Indexes the facts of function `f` on the components of `wanted`: each distinct map of
    /// its contexts once.
    fn index(&mut self, f: FnId, wanted: &FixedBitSet) {
        let facts = self.facts;
        let first = self.ctxs_indexed.insert(f);
        let mut by_map: BTreeMap<LocsId, Vec<CtxId>> = BTreeMap::new();
        for &ctx in &facts.by_func[f] {
            by_map.entry(facts.maps[ctx]).or_default().push(ctx);
        }
        for (map, ctxs) in by_map {
            for (index, loc) in facts.locs.get(map).iter().enumerate() {
                if wanted.contains(loc.rho.0 as usize) {
                    let entry = Entry {
                        map,
                        index: index as u32,
                        writes: loc.writes,
                    };
                    self.entries.push((loc.rho, f), entry);
                }
            }
            if first {
                for ctx in ctxs {
                    self.ctxs_of.push((f, map), ctx);
                }
            }
        }
    }

    /// The verdict on component `comp` at its home, from its facts there (`at_home`): the
    /// list of its accesses if it races. Facts at the label's home are untagged: they hold for
    /// every copy. Then each copy made by a call at the root ([`Tagged`]): tagged facts are
    /// their sources' (a source standing for a tagged fact gives the check the same classes,
    /// write flags and accesses), and copies with the same sources get the same verdict.
    fn at_home(&self, comp: Rho, home: FnId, at_home: &[Entry], main: FnId) -> Option<Accesses> {
        let copies: Vec<Vec<Entry>> = if home == main {
            let copies = self.facts.tagged.copies(comp);
            if copies.is_empty() {
                Vec::new()
            } else {
                let home_entries = self.home_entries(comp, at_home);
                copies
                    .iter()
                    .map(|sources| self.sources(sources, main, comp, &home_entries))
                    .collect()
            }
        } else {
            Vec::new()
        };
        // Each fact races if its class races in a verdict it is part of: the facts at the home
        // in every copy's, the facts of a copy in that copy's.
        let mut verdicts: BTreeMap<Entry, Vec<Racing>> = BTreeMap::new();
        let sig = self.signature(at_home);
        let base = self.racing_of(home, sig.clone());
        let mut any = base != NO_RACE;
        let mut in_every = vec![base];
        let mut common = Base {
            sig,
            racing: base,
            board: None,
            memo: FxHashMap::default(),
        };
        for group in &copies {
            let racing = self.racing_copy(home, &mut common, group, true);
            any |= racing != NO_RACE;
            for &e in group {
                verdicts.entry(e).or_default().push(racing);
            }
            in_every.push(racing);
        }
        // Most copies share a verdict: each entry at the home gets each distinct one once.
        in_every.sort_unstable();
        in_every.dedup();
        for &e in at_home {
            verdicts
                .entry(e)
                .or_default()
                .extend(in_every.iter().copied());
        }
        // One warning per location as soon as one copy races, listing the accesses of every
        // copy: two objects made by one allocation site, each raced on by its own threads, are
        // both in it.
        any.then(|| self.listing(home, &verdicts))
    }

    /// A listing, shared with an equal one made before: components with the same accesses (one
    /// object reached under many names) are listed once, and their warnings share it.
    fn share(&self, list: Vec<RaceAccess>) -> Accesses {
        let list: Accesses = list.into();
        let mut listings = self.listings.borrow_mut();
        listings.entry_or_insert_with(list, || ()).0.clone()
    }

    /// The facts at `main` of the components `sources` of a copy of `comp`, but those that are
    /// `comp`'s own there: `comp` itself, and a source with no facts but those it has from
    /// `comp` ([`Propagated::deferred_into`]), add nothing to them. (A blob that the objects of
    /// a thousand allocation sites flow into, and each object, has all of the blob's facts:
    /// reading them again for each copy made the check grow as the square of the program.)
    /// Nor do entries `at_home` already has: each gets every copy's verdict anyway, and the
    /// classes it adds are the home's (the `all` shape at 1M lines: 18 million entries read
    /// for 2,094 copies of one blob, 18,310 of them distinct).
    fn sources(&self, sources: &[Rho], main: FnId, comp: Rho, at_home: &HomeEntries) -> Vec<Entry> {
        let mut out: Vec<Entry> = Vec::new();
        for &x in sources {
            let into = self.facts.deferred_into.get(&x);
            if x == comp
                || (self.entries.get((x, main)).is_none()
                    && into.is_some_and(|into| into.iter().all(|&y| y == comp)))
            {
                continue;
            }
            if at_home.own && into.is_some_and(|into| into.contains(&comp)) {
                out.extend(self.entries_through(x, main, comp, at_home));
            } else {
                let of_x = self.entries_of(x, main).unwrap_or_default();
                out.extend(of_x.into_iter().filter(|e| !at_home.has(e)));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The entries `at_home` of `comp` at `main`, ready for [`Checker::sources`] to read
    /// each copy's beside them.
    fn home_entries<'e>(&self, comp: Rho, at_home: &'e [Entry]) -> HomeEntries<'e> {
        let own = self
            .facts
            .deferred_into
            .get(&comp)
            .is_none_or(Vec::is_empty);
        HomeEntries::new(at_home, own, |e| self.group(e))
    }

    /// [`Checker::entries_of`] `x` at `main` but the entries at the home, for a source `x`
    /// whose facts are deferred into the component `comp` itself, which has no facts deferred
    /// elsewhere (`at_home.own`): [`entries_beside`] of `x`'s own entries and its other
    /// carriers'.
    fn entries_through(&self, x: Rho, main: FnId, comp: Rho, at_home: &HomeEntries) -> Vec<Entry> {
        let mut others: Vec<Entry> = self.entries.get((x, main)).unwrap_or(&[]).to_vec();
        for &y in self.facts.deferred_into.get(&x).into_iter().flatten() {
            if y != comp {
                others.extend(self.entries.get((y, main)).into_iter().flatten().copied());
            }
        }
        entries_beside(others, at_home, |e| self.group(e))
    }

    /// The group of an entry: its map and whether the location is an internal copy. Merged
    /// entries share their group's write flag.
    fn group(&self, e: Entry) -> (LocsId, bool) {
        (e.map, self.facts.locs.get(e.map)[e.index as usize].internal)
    }

    fn loc(&self, e: Entry) -> Loc {
        Loc {
            writes: e.writes,
            ..self.facts.locs.get(e.map)[e.index as usize]
        }
    }

    /// Whether component `comp`, whose facts at `home` are mostly its carriers'
    /// ([`Propagated::deferred_into`]), is certainly consistently correlated there, decided
    /// as a copy is ([`Checker::racing_copy`]): its own entries against a board of its
    /// carriers' entries, made once for all the components they carry. `false` when that
    /// does not decide it (a race, entries of its own in a group of theirs, where the merged
    /// write flags would differ, copies at the root, a `volatile sig_atomic_t` location, or
    /// no facts at all), and [`Checker::at_home`] then decides as for any other. The buffers
    /// that the callers of one function hand a queue's reader have all of the queue's entries
    /// at `main`, one per module: reading them again for each made the check grow as buffers
    /// times modules (the lazy shape, 100k to 1M lines: 18,026 entries read → 1,157,913).
    fn carried_race_free(&self, comp: Rho, home: FnId) -> bool {
        debug_assert!(
            self.facts.reads.reads(home, comp),
            "{comp:?} is not kept at {home:?}"
        );
        let Some(into) = self.facts.deferred_into.get(&comp) else {
            return false;
        };
        if into.is_empty()
            || self.signal_atomic_now.get()
            || (home == self.main && self.facts.tagged.reaches(comp))
        {
            return false;
        }
        let mut bases = self.carried_bases.borrow_mut();
        let carried = bases
            .entry((into.clone(), home))
            .or_insert_with(|| self.carried_base(into, home));
        let mut own: Vec<Entry> = self.entries.get((comp, home)).unwrap_or(&[]).to_vec();
        if carried.groups.is_empty()
            || own
                .iter()
                .any(|&e| carried.groups.binary_search(&self.group(e)).is_ok())
        {
            return false;
        }
        merge_writes(&mut own, |e| self.group(e));
        let racing = if own.is_empty() {
            carried.base.racing
        } else {
            self.racing_copy(home, &mut carried.base, &own, false)
        };
        racing == NO_RACE
    }

    /// The entries of the sticky components `into` at `home`, merged, as a [`CarriedBase`].
    fn carried_base(&self, into: &[Rho], home: FnId) -> CarriedBase {
        let mut entries: Vec<Entry> = Vec::new();
        for &x in into {
            debug_assert!(
                self.facts.reads.reads(home, x),
                "{x:?} is not kept at {home:?}"
            );
            entries.extend(self.entries.get((x, home)).into_iter().flatten().copied());
        }
        merge_writes(&mut entries, |e| self.group(e));
        let mut groups: Vec<(LocsId, bool)> = entries.iter().map(|&e| self.group(e)).collect();
        groups.sort_unstable();
        groups.dedup();
        let sig = self.signature(&entries);
        let racing = self.racing_of(home, sig.clone());
        CarriedBase {
            groups,
            base: Base {
                sig,
                racing,
                board: None,
                memo: FxHashMap::default(),
            },
        }
    }

    /// The entries of component `comp` at `f`: its own, and those of the sticky components
    /// whose facts it has without the maps saying so ([`Propagated::deferred_into`]), with the
    /// write flag of all of them in each map; `None` without any.
    fn entries_of(&self, comp: Rho, f: FnId) -> Option<Vec<Entry>> {
        debug_assert!(
            self.facts.reads.reads(f, comp),
            "{comp:?} is not kept at {f:?}"
        );
        let own = self.entries.get((comp, f));
        let into = self
            .facts
            .deferred_into
            .get(&comp)
            .map_or(&[][..], Vec::as_slice);
        if into.is_empty() {
            return own.map(<[Entry]>::to_vec);
        }
        let mut out: Vec<Entry> = own.map(<[Entry]>::to_vec).unwrap_or_default();
        for x in into {
            debug_assert!(self.facts.reads.reads(f, *x), "{x:?} is not kept at {f:?}");
            out.extend(self.entries.get((*x, f)).into_iter().flatten().copied());
        }
        if out.is_empty() {
            return None;
        }
        // The write flag of the location in each map and copy: that of any entry there.
        merge_writes(&mut out, |e| self.group(e));
        Some(out)
    }

    fn ctxs(&self, f: FnId, map: LocsId) -> &[CtxId] {
        self.ctxs_of.get((f, map)).unwrap_or(&[])
    }

    /// The class key of the fact of context `ctx` at location `loc` (what makes facts
    /// interchangeable for the pairwise check), packed ([`CtxRanks::packed`]).
    fn key(&self, ctx: CtxId, loc: &Loc) -> u64 {
        let held = self.facts.ctxs[ctx].held;
        self.ranks.packed(ctx, loc.internal, held, loc.writes)
    }

    /// The classes of the facts `entries` (of one location at `home`) in a racing pair — two
    /// accesses that may happen at the same time, one writing, without a common lock. Empty
    /// when the location is consistently correlated. The answer depends only on the set of
    /// classes, that is on the entries' maps and flags, which many locations share.
    fn racing(&self, home: FnId, entries: &[Entry]) -> Racing {
        self.racing_of(home, self.signature(entries))
    }

    /// [`Checker::racing`] of the facts with signature `sig`.
    fn racing_of(&self, home: FnId, sig: Signature) -> Racing {
        if !writes_in(&sig) {
            return NO_RACE;
        }
        // A `volatile sig_atomic_t` location's verdict is its own: its signature is not all
        // that decides it.
        let memo = !self.signal_atomic_now.get();
        if let Some(&found) = self.racing_memo.borrow().get(&(home, sig.clone())) {
            if memo {
                return found;
            }
        }
        let keys = self.class_keys(home, &sig);
        let found = self.racing_set(NO_RACE, self.board(home, keys).racing());
        if memo {
            self.racing_memo.borrow_mut().insert((home, sig), found);
        }
        found
    }

    /// The verdict of a copy: the facts of `base` (those at the home) and of `group` (the
    /// copy's sources). Only the classes the group adds are decided, against the cells the
    /// facts at the home left ([`Board`], made once for all copies): an allocation site called
    /// from hundreds of places makes hundreds of copies that each add a map or two to
    /// thousands. A group that adds nothing has the home's verdict.
    ///
    /// `across` also looks the verdict up among those of other bases with the same signature
    /// (`copy_memo`), at the cost of hashing the base's signature: worth it for copies, which
    /// are few per base, not for the components one carrier's base is shared by.
    fn racing_copy(&self, home: FnId, base: &mut Base, group: &[Entry], across: bool) -> Racing {
        let extra: Signature = self
            .signature(group)
            .into_iter()
            .filter(|x| base.sig.binary_search(x).is_err())
            .collect();
        if extra.is_empty() {
            return base.racing;
        }
        if !writes_in(&base.sig) && !writes_in(&extra) {
            return NO_RACE;
        }
        if let Some(&found) = base.memo.get(&extra) {
            return found;
        }
        // As in [`Checker::racing_of`], a `volatile sig_atomic_t` location's verdict is its own.
        let key: Option<CopyKey> = (across && !self.signal_atomic_now.get())
            .then(|| (home, base.sig.clone(), extra.clone()));
        let known = (key.as_ref()).and_then(|key| self.copy_memo.borrow().get(key).copied());
        let found = match known {
            Some(found) => found,
            None => {
                let board = match &base.board {
                    Some(board) => board,
                    None => base
                        .board
                        .insert(self.board(home, self.class_keys(home, &base.sig))),
                };
                let more = self.extended(home, board, self.class_keys(home, &extra));
                let found = self.racing_set(base.racing, more);
                if let Some(key) = key {
                    self.copy_memo.borrow_mut().insert(key, found);
                }
                found
            }
        };
        base.memo.insert(extra, found);
        found
    }

    /// The verdict whose racing classes are those of `within` and `classes`.
    fn racing_set(&self, within: Racing, classes: Vec<u64>) -> Racing {
        if classes.is_empty() {
            return within;
        }
        let mut sets = self.racing_sets.borrow_mut();
        debug_assert!(classes.is_sorted());
        sets.push(RacingSet {
            within,
            own: classes.into(),
        });
        (sets.len() - 1) as Racing
    }

    /// The signature of `entries`: each map with the location's internal and write flags.
    fn signature(&self, entries: &[Entry]) -> Signature {
        let mut sig: Signature = entries
            .iter()
            .map(|&e| {
                let loc = self.loc(e);
                (e.map, loc.internal, loc.writes)
            })
            .collect();
        sig.sort_unstable();
        sig.dedup();
        sig
    }

    /// The classes of the facts of `sig` at `home`: one per context of each map, packed
    /// ([`CtxRanks::packed`]) and sorted, which is the keys' own order: a location that every
    /// context at `main` reaches has tens of thousands of keys, and comparing them field by
    /// field was a tenth of a run.
    fn class_keys(&self, home: FnId, sig: &Signature) -> Vec<u64> {
        let mut packed: Vec<u64> = Vec::new();
        for &(map, internal, writes) in sig {
            for &ctx in self.ctxs(home, map) {
                packed.push(
                    self.ranks
                        .packed(ctx, internal, self.facts.ctxs[ctx].held, writes),
                );
            }
        }
        packed.sort_unstable();
        packed.dedup();
        packed
    }

    /// The classes of `keys` in a racing pair, decided on a [`Board`]. Classes are grouped into
    /// *cells* of one payload (locks, internal and write flags) and one top (what
    /// [`Concurrency::concurrent_here`] and the phases decide on: a context but its nest).
    /// Payloads are compared first: two with a common lock, or neither writing, can never
    /// race, so their cells are never paired — the pairs compared are those of lock-set
    /// classes that may race, not of all accesses. For the others, two tops are compared once
    /// (the answer memoised per function across locations), and a pair of cells whose classes
    /// are all known to race is not compared again. Only two threads started at one point are
    /// compared by their nests ([`Concurrency::mark_below`]).
    fn board(&self, home: FnId, packed: Vec<u64>) -> Board {
        let keys: Vec<ClassKey> = packed.iter().map(|&k| self.ranks.key(k)).collect();
        let mut marks = Marks::new(keys.len());
        let payloads = cells(&keys, 0, &mut marks);
        let mut open = all_open(&payloads);
        let unordered = self.unordered(&payloads);
        self.decide_among(home, &payloads, &unordered, &mut open, &mut marks);
        Board {
            packed,
            keys,
            payloads,
            unordered,
            marks,
            open,
        }
    }

    /// The racing classes of the classes of `base` and `extra` together that do not race in
    /// `base` alone, deciding only the pairs with a class of `extra` that `base` lacks.
    fn extended(&self, home: FnId, base: &Board, extra: Vec<u64>) -> Vec<u64> {
        let extra_packed: Vec<u64> = extra
            .into_iter()
            .filter(|k| base.packed.binary_search(k).is_err())
            .collect();
        let extra: Vec<ClassKey> = extra_packed.iter().map(|&k| self.ranks.key(k)).collect();
        let mut marks = base.marks.clone();
        marks.grow(extra.len());
        let payloads = cells(&extra, base.keys.len(), &mut marks);
        let mut open = base.open.clone();
        for (payload_a, cells_a) in &payloads {
            for k in self.unordered_with(&base.unordered, payload_a).ones() {
                let (payload_b, cells_b) = &base.payloads[k];
                if self.payloads_may_race(payload_a, payload_b) {
                    for x in cells_a {
                        self.compare_from(home, x, cells_b, 0, &mut open[k], &mut marks);
                    }
                }
            }
        }
        let unordered = self.unordered(&payloads);
        let mut extra_open = all_open(&payloads);
        self.decide_among(home, &payloads, &unordered, &mut extra_open, &mut marks);
        let before = base
            .marks
            .racing
            .iter()
            .copied()
            .chain(std::iter::repeat(false));
        let mut racing: Vec<u64> = base
            .packed
            .iter()
            .chain(extra_packed.iter())
            .zip(marks.racing.iter().zip(before))
            .filter(|(_, (now, before))| **now && !*before)
            .map(|(k, _)| *k)
            .collect();
        racing.sort_unstable();
        racing
    }

    /// Decides the pairs of cells of `payloads` (each pair once, each cell with itself too),
    /// with `open` the positions of each payload's cells not yet known to race. Two payloads
    /// whose cells are all known to race have nothing left to learn from each other and are
    /// not compared: a location that every thread writes under its own locks (memory of code
    /// locksmith cannot see, reached by every callback) has thousands of payloads that all
    /// race after a few comparisons, and asking each pair whether it may race made its check
    /// quadratic in them (the `all` shape at 1M lines: 3,891 payloads, 7.6 million pairs).
    /// Nor are two payloads with a common lock, which are never paired at all: `unordered`
    /// gives each payload the others its locks leave unordered.
    fn decide_among(
        &self,
        home: FnId,
        payloads: &[(Payload, Vec<Cell>)],
        unordered: &Unordered,
        open: &mut [Vec<usize>],
        marks: &mut Marks,
    ) {
        for (i, (payload_a, cells_a)) in payloads.iter().enumerate() {
            let partners = self.unordered_with(unordered, payload_a);
            for j in partners.ones().skip_while(|&j| j < i) {
                let (payload_b, cells_b) = &payloads[j];
                if !still_open(&mut open[i], cells_a, marks)
                    && !still_open(&mut open[j], cells_b, marks)
                {
                    continue;
                }
                if !self.payloads_may_race(payload_a, payload_b) {
                    continue;
                }
                for (a, x) in cells_a.iter().enumerate() {
                    let from = if j == i { a } else { 0 };
                    self.compare_from(home, x, cells_b, from, &mut open[j], marks);
                }
            }
        }
    }

    /// The index of the lock sets of `payloads` ([`Unordered`]).
    fn unordered(&self, payloads: &[(Payload, Vec<Cell>)]) -> Unordered {
        let held: Vec<SetId> = payloads.iter().map(|(payload, _)| payload.0).collect();
        Unordered::new(self.sets, &held, |l| self.mask_locks.contains(&l))
    }

    /// The payloads `unordered` indexes whose locks leave them unordered with `payload`.
    fn unordered_with(&self, unordered: &Unordered, payload: &Payload) -> FixedBitSet {
        unordered.with(self.sets, payload.0, |l| self.mask_locks.contains(&l))
    }

    /// Whether facts of two payloads may race: one writes, they have no common lock, and they
    /// are not two internal copies (made by runs of a callee: different locations, or the same
    /// run, compared in the callee).
    fn payloads_may_race(&self, a: &Payload, b: &Payload) -> bool {
        let (&(held_a, internal_a, writes_a), &(held_b, internal_b, writes_b)) = (a, b);
        (writes_a || writes_b)
            && !self.common_lock(held_a, held_b)
            && !(self.techniques.has(Technique::DownFork) && internal_a && internal_b)
    }

    /// Compares cell `x` with the cells of `cells` from position `from` on: with each, while
    /// `x` may still learn that it races; then only with those not yet known to race (`open`,
    /// their positions, pruned as they become known), since a pair of cells with nothing left
    /// to learn is never visited — a location many threads reach costs the pairs that can
    /// still race, not all.
    fn compare_from(
        &self,
        home: FnId,
        x: &Cell,
        cells: &[Cell],
        from: usize,
        open: &mut Vec<usize>,
        marks: &mut Marks,
    ) {
        let mut next = from;
        while next < cells.len() && !marks.cell_done(x.id) {
            self.compare_cells(home, x, &cells[next], marks);
            next += 1;
        }
        if next < cells.len() {
            open.retain(|&k| !marks.cell_done(cells[k].id));
            let start = open.partition_point(|&k| k < next);
            for &k in &open[start..] {
                self.compare_cells(home, x, &cells[k], marks);
            }
        }
    }

    /// Compares two cells of payloads that may race ([`Checker::board`]): when their
    /// tops may meet, marks the classes that race.
    fn compare_cells(&self, home: FnId, a: &Cell, b: &Cell, marks: &mut Marks) {
        let (x, y) = (&a.top, &b.top);
        if marks.cell_done(a.id) && marks.cell_done(b.id) {
            return;
        }
        if self.signal_atomic_now.get() && self.handler_interrupts(home, x, y) {
            return;
        }
        if !self.masked.is_empty() && self.handler_masked(home, a, b) {
            return;
        }
        let sharing = self.techniques.has(Technique::Sharing);
        if sharing && !self.tops_concurrent(home, x, y) {
            return;
        }
        match (x.thread, y.thread) {
            (Thread::Forked(ta), Thread::Forked(tb)) if sharing && x.point == y.point => {
                let nests = self.conc.nests;
                let (gx, gy) = (a.below(nests), b.below(nests));
                let settled = [marks.cell_done(a.id), marks.cell_done(b.id)];
                self.conc
                    .mark_below(home, [ta, tb], x.point, [gx, gy], settled, marks)
            }
            _ => {
                for &(_, k) in a.members.iter().chain(b.members.iter()) {
                    marks.set(k);
                }
            }
        }
    }

    /// Whether one of two contexts is a signal handler's and the other that of `main`'s own
    /// thread at a point where no other thread of the program may run: then the handler can
    /// only run by interrupting that thread, which is what a `volatile sig_atomic_t` object is
    /// for (C11 7.14.1.1 §5), and their accesses to one do not race. Where another thread may
    /// run, the handler may run on it, at the same time as `main`'s access (POSIX delivers a
    /// signal to any thread not blocking it), and two accesses of different threads race.
    fn handler_interrupts(&self, home: FnId, x: &Ctx, y: &Ctx) -> bool {
        if home != self.main {
            return false;
        }
        let handler = |c: &Ctx| matches!(c.thread, Thread::Forked(s) if self.handlers.contains(&s));
        let alone = |c: &Ctx| self.main_alone(home, c);
        (handler(x) && alone(y)) || (handler(y) && alone(x))
    }

    /// Whether one of two cells is a signal handler's and the other one of `main`'s own thread
    /// where no other thread of the program may run and the handler's signal is blocked (its
    /// mask lock held, [`ThreadProgram::masked_handlers`]). A blocked signal is not delivered
    /// to the thread that blocks it but stays pending (POSIX XSH 2.4.1), and no other thread
    /// exists to take it: the handler cannot run until `main` unblocks it. Where another
    /// thread may run, the handler may run on that thread, at the same time.
    fn handler_masked(&self, home: FnId, a: &Cell, b: &Cell) -> bool {
        let masked_by = |h: &Cell, y: &Cell| {
            let Thread::Forked(site) = h.top.thread else {
                return false;
            };
            let Some(&lock) = self.masked.get(&site) else {
                return false;
            };
            self.sets
                .get(y.held)
                .iter()
                .any(|held| held.lock == lock && !held.again)
                && self.main_alone(home, &y.top)
        };
        masked_by(a, b) || masked_by(b, a)
    }

    /// Whether a context is `main`'s own thread at a point where no thread of the program but
    /// signal handlers may run.
    fn main_alone(&self, home: FnId, c: &Ctx) -> bool {
        home == self.main
            && c.thread == Thread::Current
            && self
                .conc
                .mhp
                .live_sites(home, c.point)
                .iter()
                .chain(self.conc.site_sets.get(c.inside))
                .all(|s| self.handlers.contains(s))
    }

    /// Whether accesses of two tops may meet as far as `home` sees ([`Concurrency::concurrent`]
    /// but for the nests), memoised per function: the locations checked there share tops.
    ///
    /// Two accesses of the function's own thread never meet (one run of a function is one
    /// thread): answered before the memo, which a location the thread touches at a thousand
    /// points (an array of thread ids, written at each of a thousand creates) filled with a
    /// million pairs.
    fn tops_concurrent(&self, home: FnId, x: &Ctx, y: &Ctx) -> bool {
        if x.thread == Thread::Current && y.thread == Thread::Current {
            return false;
        }
        let key = (home, top(x), top(y));
        if let Some(&known) = self.tops_memo.borrow().get(&key) {
            return known;
        }
        let found = !x.phase.orders(y.phase) && self.conc.concurrent_here(home, x, y, false);
        self.tops_memo.borrow_mut().insert(key, found);
        found
    }

    /// The warning for a racy location at `home`: every access of its facts (`verdicts`: each
    /// location of a context map with the racing classes of the verdicts it is part of), those
    /// behind a fact whose class races in one of them marked as racing (the others are context:
    /// a maintainer needs to see where it is protected to see where it is not), with the locks
    /// held and the thread. The facts are grouped by thread, locks and whether they race, and
    /// the accesses of each group's locations joined once. An access behind both kinds of
    /// facts is racing. A listing with the same groups as one made before is that one.
    fn listing(&self, home: FnId, verdicts: &BTreeMap<Entry, Vec<Racing>>) -> Accesses {
        let mut groups: BTreeMap<(Thread, SetId, bool), Vec<AccSetId>> = BTreeMap::new();
        for (&e, racing) in verdicts {
            let loc = self.loc(e);
            for &group in self.listed_as(home, e.map, &loc, racing).iter() {
                groups.entry(group).or_default().push(loc.accesses);
            }
        }
        let groups: ListingGroups = groups
            .into_iter()
            .map(|(group, mut behind)| {
                behind.sort_unstable();
                behind.dedup();
                (group, behind)
            })
            .collect();
        let key = (home, groups);
        if let Some(found) = self.listing_memo.borrow().get(&key) {
            return found.clone();
        }
        let listed = self.share(self.flatten(&key.1));
        self.listing_memo.borrow_mut().insert(key, listed.clone());
        listed
    }

    /// The accesses of a listing's groups ([`Checker::listing`]), one per access and group,
    /// an access behind both kinds of facts racing. Sorted by access, then by the locks held,
    /// the thread and racing first; one per access, locks and thread. The groups are ranked in
    /// that order once, and the accesses sorted as packed (access, rank) pairs: a blob's
    /// listing names hundreds of thousands of accesses, and comparing each pair's lock lists
    /// was most of its cost.
    fn flatten(&self, groups: &ListingGroups) -> Vec<RaceAccess> {
        let locs = &self.facts.locs;
        let mut heads: Vec<RaceAccess> = groups
            .iter()
            .map(|&((thread, held, context), _)| RaceAccess {
                access: AccessId(0),
                held: self
                    .sets
                    .get(held)
                    .iter()
                    .copied()
                    .filter(|h| !h.again)
                    .collect(),
                thread,
                racing: !context,
            })
            .collect();
        let order = |x: &RaceAccess, y: &RaceAccess| {
            (&x.held, x.thread, !x.racing).cmp(&(&y.held, y.thread, !y.racing))
        };
        let mut by_rank: Vec<usize> = (0..heads.len()).collect();
        by_rank.sort_by(|&a, &b| order(&heads[a], &heads[b]));
        // Groups that list alike share a rank.
        let mut rank = vec![0u32; heads.len()];
        for pair in by_rank.windows(2) {
            let next = rank[pair[0]] + u32::from(order(&heads[pair[0]], &heads[pair[1]]).is_ne());
            rank[pair[1]] = next;
        }
        let mut packed: Vec<u64> = Vec::new();
        for (g, (_, behind)) in groups.iter().enumerate() {
            let accesses = behind.iter().flat_map(|&set| locs.accesses(set));
            packed.extend(accesses.map(|a| (u64::from(a.0) << 32) | u64::from(rank[g])));
        }
        packed.sort_unstable();
        packed.dedup();
        let mut of_rank: Vec<usize> = vec![0; heads.len()];
        for (g, &r) in rank.iter().enumerate() {
            of_rank[r as usize] = g;
        }
        let mut accesses: Vec<RaceAccess> = Vec::with_capacity(packed.len());
        for key in packed {
            let head = &mut heads[of_rank[(key & u64::from(u32::MAX)) as usize]];
            head.access = AccessId((key >> 32) as u32);
            // Racing comes first among equal accesses: the one kept.
            if let Some(last) = accesses.last() {
                if (last.access, &last.held, last.thread) == (head.access, &head.held, head.thread)
                {
                    continue;
                }
            }
            accesses.push(head.clone());
        }
        accesses
    }

    /// How the facts of `loc` (a location of `map`) at `home` are grouped in a listing, for
    /// verdicts with the racing classes `racing`: by thread, locks and whether their class
    /// races in one of them. Memoised: the locations of one map share it.
    fn listed_as(&self, home: FnId, map: LocsId, loc: &Loc, racing: &[Racing]) -> ListedAs {
        let mut racing = racing.to_vec();
        racing.sort_unstable();
        racing.dedup();
        let memo_key = (home, map, loc.internal, loc.writes, racing);
        if let Some(found) = self.listed_memo.borrow().get(&memo_key) {
            return found.clone();
        }
        let sets = self.racing_sets.borrow();
        let mut out: Vec<(Thread, SetId, bool)> = self
            .ctxs(home, map)
            .iter()
            .map(|&ctx| {
                let key = self.key(ctx, loc);
                let races = memo_key.4.iter().any(|&r| races_in(&sets, r, key));
                let c = &self.facts.ctxs[ctx];
                (c.ctx.thread, c.held, !races)
            })
            .collect();
        drop(sets);
        out.sort_unstable();
        out.dedup();
        let out: ListedAs = out.into();
        self.listed_memo.borrow_mut().insert(memo_key, out.clone());
        out
    }

    /// Whether two lock sets share a lock that protects: a mask lock never does, for two
    /// threads may block one signal at the same time.
    fn common_lock(&self, a: SetId, b: SetId) -> bool {
        if self.mask_locks.is_empty() {
            self.sets.common_lock(a, b)
        } else {
            self.sets
                .common_lock_except(a, b, |l| self.mask_locks.contains(&l))
        }
    }
}

/// A cell of a [`Board`]: its top's representative context, its members, and its number in
/// [`Marks`]. A cell is compared with many others: the grouping of its members by the
/// outermost level of their nests, which [`Concurrency::mark_below`] compares, is made once,
/// on first use.
struct Cell {
    top: Ctx,
    /// The locks its members hold (the payload's).
    held: SetId,
    members: Vec<Member>,
    id: usize,
    below: std::cell::OnceCell<Below>,
}

impl Cell {
    fn below(&self, nests: &Nests) -> &Below {
        self.below.get_or_init(|| below(nests, &self.members))
    }
}

/// The outermost level of a nest: the fork a context left through and the thread function,
/// `None` without a level.
type Outer = Option<(Site, FnId)>;

/// Members grouped by the outermost level of their nests, each with its context at that level.
type Below = BTreeMap<Outer, Vec<Member>>;

/// The members `zs` grouped by the outermost level of their nests ([`Below`]).
fn below(nests: &Nests, zs: &[Member]) -> Below {
    let mut out: Below = BTreeMap::new();
    for &(c, idx) in zs {
        match nests.get(c.nest) {
            Some((level, inner)) => out
                .entry(Some((level.site, level.func)))
                .or_default()
                .push((Ctx::of_level(&level, inner, c.phase), idx)),
            None => out.entry(None).or_default().push((c, idx)),
        }
    }
    out
}

/// What the facts of a class hold apart from their context: locks, internal and write flags.
type Payload = (SetId, bool, bool);

/// A set of classes with their racing pairs decided ([`Checker::board`]): the classes, their
/// cells by payload, which race, and which cells of each payload are not yet known to race,
/// so that more classes can be decided against it ([`Checker::extended`]).
struct Board {
    /// The classes, packed ([`CtxRanks::packed`]) and sorted; `keys` are the same, unpacked.
    packed: Vec<u64>,
    keys: Vec<ClassKey>,
    payloads: Vec<(Payload, Vec<Cell>)>,
    /// The lock sets of `payloads`, indexed.
    unordered: Unordered,
    marks: Marks,
    open: Vec<Vec<usize>>,
}

impl Board {
    /// The classes that race.
    fn racing(self) -> Vec<u64> {
        self.packed
            .into_iter()
            .zip(self.marks.racing)
            .filter(|(_, r)| *r)
            .map(|(k, _)| k)
            .collect()
    }
}

/// The facts of a location at its home, which every copy's verdict extends
/// ([`Checker::racing_copy`]): their signature and verdict, the board their classes left once
/// one was needed, and the verdicts of the copies by what each adds to the signature.
struct Base {
    sig: Signature,
    racing: Racing,
    board: Option<Board>,
    memo: FxHashMap<Signature, Racing>,
}

/// The facts a component has from its carriers at a function ([`Checker::carried_race_free`]):
/// the groups (map, internal flag) of their entries, sorted, and the base of the verdicts of
/// the components they carry.
struct CarriedBase {
    groups: Vec<(LocsId, bool)>,
    base: Base,
}

/// The accesses of a listing grouped by thread, locks and whether they are only context, each
/// group's access sets sorted ([`Checker::listing`]).
type ListingGroups = Vec<((Thread, SetId, bool), Vec<AccSetId>)>;

/// The racing classes of a verdict: those of the verdict `within` ([`NO_RACE`] for none: a
/// copy's are those of the facts at the home and its own), and `own`.
#[derive(Default)]
struct RacingSet {
    within: Racing,
    /// Packed ([`CtxRanks::packed`]) and sorted.
    own: Box<[u64]>,
}

/// Whether class `key` (packed) races in verdict `racing`.
fn races_in(sets: &[RacingSet], racing: Racing, key: u64) -> bool {
    let set = &sets[racing as usize];
    set.own.binary_search(&key).is_ok()
        || (set.within != NO_RACE && races_in(sets, set.within, key))
}

/// Whether some cell of a payload (`cells`, with `open` the positions of those not yet known
/// to race) may still learn that it races; `open` is pruned of those now known to.
fn still_open(open: &mut Vec<usize>, cells: &[Cell], marks: &Marks) -> bool {
    open.retain(|&k| !marks.cell_done(cells[k].id));
    !open.is_empty()
}

/// Per payload, the positions of its cells, none yet known to race.
fn all_open(payloads: &[(Payload, Vec<Cell>)]) -> Vec<Vec<usize>> {
    payloads
        .iter()
        .map(|(_, cells)| (0..cells.len()).collect())
        .collect()
}

/// Whether some fact of signature `sig` writes (without one, nothing races).
fn writes_in(sig: &Signature) -> bool {
    sig.iter().any(|&(_, _, writes)| writes)
}

/// The classes `keys` (numbered from `first` in `marks`) grouped into cells by payload and
/// top, each registered in `marks`; payloads in ascending order, each cell's members in the
/// order of the keys. Grouped by one sort: the keys of a location that every context at `main`
/// reaches are tens of thousands, and a hash map of hash maps of vectors cost an allocation
/// and a miss for each of their tops.
fn cells(keys: &[ClassKey], first: usize, marks: &mut Marks) -> Vec<(Payload, Vec<Cell>)> {
    let mut order: Vec<(Payload, Top, u32)> = keys
        .iter()
        .enumerate()
        .map(|(k, &(ctx, internal, held, writes))| ((held, internal, writes), top(&ctx), k as u32))
        .collect();
    order.sort_unstable();
    order
        .chunk_by(|a, b| a.0 == b.0)
        .map(|of_payload| {
            let payload = of_payload[0].0;
            let cells = of_payload
                .chunk_by(|a, b| a.1 == b.1)
                .map(|of_top| {
                    let members: Vec<Member> = of_top
                        .iter()
                        .map(|&(_, _, k)| (keys[k as usize].0, first + k as usize))
                        .collect();
                    Cell {
                        top: members[0].0,
                        held: payload.0,
                        id: marks.add_cell(&members),
                        members,
                        below: std::cell::OnceCell::new(),
                    }
                })
                .collect();
            (payload, cells)
        })
        .collect()
}

/// The verdict without racing classes.
const NO_RACE: Racing = 0;

impl Concurrency<'_> {
    /// Marks in `racing` the members of `a` and of `b` (contexts of one function `home`,
    /// each with its index in `racing`) that have a concurrent partner in the other list: the
    /// answer of [`Concurrency::concurrent`] on every pair, found by comparing the contexts'
    /// threads, points, joined and started threads and phases once per distinct combination,
    /// and their nests only where those leave the pair open (two threads started at one point):
    /// there the contexts are compared level by level, as [`Concurrency::ordered_below`] does.
    /// `a` and `b` may be the same list (a group against itself, each member with itself too).
    pub fn mark(&self, home: FnId, a: &[Member], b: &[Member], marks: &mut Marks) {
        if a.is_empty() || b.is_empty() {
            return;
        }
        if !self.techniques.has(Technique::Sharing) {
            for &(_, k) in a.iter().chain(b) {
                marks.set(k);
            }
            return;
        }
        let tops_a = by_top(a);
        let tops_b = by_top(b);
        // Marks only grow: a top once seen with every member marked stays so, and is neither
        // scanned nor marked again (a point starting thousands of threads pairs each of its
        // tops with every other, each with thousands of members: `all` shape at 1M lines).
        let mut done_a = vec![false; tops_a.len()];
        let mut done_b = vec![false; tops_b.len()];
        let done = |done: &mut [bool], i: usize, xs: &[Member], marks: &Marks| {
            done[i] = done[i] || xs.iter().all(|&(_, k)| marks.is(k));
            done[i]
        };
        // Each top's members grouped by their outermost level, made once for all its pairs.
        let below_a: Vec<OnceCell<Below>> = tops_a.iter().map(|_| OnceCell::new()).collect();
        let below_b: Vec<OnceCell<Below>> = tops_b.iter().map(|_| OnceCell::new()).collect();
        for (i, xs) in tops_a.iter().enumerate() {
            let x = &xs[0].0;
            for (j, ys) in tops_b.iter().enumerate() {
                let y = &ys[0].0;
                let settled = [
                    done(&mut done_a, i, xs, marks),
                    done(&mut done_b, j, ys, marks),
                ];
                if settled == [true, true] {
                    continue;
                }
                if x.phase.orders(y.phase) || !self.concurrent_here(home, x, y, false) {
                    continue;
                }
                match (x.thread, y.thread) {
                    (Thread::Forked(ta), Thread::Forked(tb)) if x.point == y.point => {
                        let gx = below_a[i].get_or_init(|| below(self.nests, xs));
                        let gy = below_b[j].get_or_init(|| below(self.nests, ys));
                        self.mark_below(home, [ta, tb], x.point, [gx, gy], settled, marks);
                    }
                    _ => {
                        for (zs, settled) in [(xs, settled[0]), (ys, settled[1])] {
                            if !settled {
                                for &(_, k) in zs {
                                    marks.set(k);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// [`Concurrency::mark`] for two groups of contexts under threads (of sites `threads`)
    /// started at one point `k` of `home`, whose threads, points, joined and started threads
    /// are concurrent: a pair is then ordered only as [`Concurrency::ordered_below`] orders it,
    /// by the levels their nests kept. The groups come grouped by their outermost level
    /// ([`below`]).
    ///
    /// Two groups under one fork site whose threads never meet (`apart`) are compared only
    /// when under the same thread function, level by level; every other pair of groups is
    /// concurrent, which marks both whole. So a group is marked whole when the other side has
    /// a group it is not apart from — any group when it has no level or its site's threads
    /// meet, a group of another site (or of none) otherwise — found from the number of the
    /// other side's groups at each site, not pair by pair. A side whose members are all
    /// marked already (`settled`) is not marked again.
    fn mark_below(
        &self,
        home: FnId,
        threads: [Site; 2],
        k: Point,
        [gx, gy]: [&Below; 2],
        settled: [bool; 2],
        marks: &mut Marks,
    ) {
        let mark_all = |zs: &[Member], marks: &mut Marks| {
            for &(_, k) in zs {
                marks.set(k);
            }
        };
        let mut apart_memo: FxHashMap<Site, bool> = FxHashMap::default();
        let mut apart = |site: Site| {
            *apart_memo
                .entry(site)
                .or_insert_with(|| !self.mhp.tree_overlap(home, site, k, threads))
        };
        // The groups of each side at each fork site.
        let per_site = |g: &Below| {
            let mut n: FxHashMap<Site, usize> = FxHashMap::default();
            for (site, _) in g.keys().flatten() {
                *n.entry(*site).or_default() += 1;
            }
            n
        };
        let (at_x, at_y) = (per_site(gx), per_site(gy));
        // Whether a group at `outer` meets one of `other`'s groups unordered.
        let mut meets_any = |outer: &Outer, other: &Below, at: &FxHashMap<Site, usize>| match outer
        {
            Some((site, _)) if apart(*site) => other.len() > at.get(site).copied().unwrap_or(0),
            _ => !other.is_empty(),
        };
        for (ox, lx) in gx.iter().filter(|_| !settled[0]) {
            if meets_any(ox, gy, &at_y) {
                mark_all(lx, marks);
            }
        }
        for (oy, ly) in gy.iter().filter(|_| !settled[1]) {
            if meets_any(oy, gx, &at_x) {
                mark_all(ly, marks);
            }
        }
        // Under one and the same thread of a fork whose threads never meet.
        for (ox, lx) in gx {
            if let Some((site, f)) = ox {
                if let Some(ly) = gy.get(ox).filter(|_| apart(*site)) {
                    self.mark(*f, lx, ly, marks);
                }
            }
        }
    }

    /// Whether accesses in two contexts may happen at the same time in one run of `home`: as far
    /// as `home` can tell, and then as the thread under which both happen orders them
    /// ([`Checker::ordered_below`]).
    pub fn concurrent(&self, home: FnId, a: &Ctx, b: &Ctx, same: bool) -> bool {
        if !self.techniques.has(Technique::Sharing) {
            return true;
        }
        // Different phases of the barrier every waiting thread needs for each trip.
        if a.phase.orders(b.phase) {
            return false;
        }
        self.concurrent_here(home, a, b, same) && !self.ordered_below(home, a, b)
    }

    /// Whether two accesses under threads that `home`'s thread started through one event are
    /// ordered by those threads (the "thread structure in every thread"; the paper's
    /// sharing rule, which only orders a parent's accesses before a fork with its child, applied
    /// in each thread rather than only in `main`). At `home`, a thread `P` started at point `k`
    /// and a child `C` that `P` starts are both `Forked` facts of point `k`; `P`'s write before
    /// it starts `C`, or after it joins `C`, is ordered with `C`'s accesses only in `P`'s own
    /// function, which the facts' nests keep ([`super::nest`]). When both facts left `home`'s
    /// thread through the same fork site at `k`, they happen under threads of that site: under
    /// two different ones, which can only meet if two such threads (with what they start) may
    /// overlap ([`Mhp::tree_overlap`]: a fork in a loop not joined before it runs again, a
    /// function starting it called twice, …), or under one and the same, where they are
    /// compared as that thread's function sees them, level by level.
    fn ordered_below(&self, home: FnId, a: &Ctx, b: &Ctx) -> bool {
        let (Thread::Forked(ta), Thread::Forked(tb)) = (a.thread, b.thread) else {
            return false;
        };
        if a.point != b.point {
            return false;
        }
        let (Some((x, x_inner)), Some((y, y_inner))) =
            (self.nests.get(a.nest), self.nests.get(b.nest))
        else {
            return false;
        };
        let threads = [ta, tb];
        if x.site != y.site || self.mhp.tree_overlap(home, x.site, a.point, threads) {
            return false;
        }
        // Threads of one fork site running different functions are different threads.
        if x.func != y.func {
            return true;
        }
        let (cx, cy) = (
            Ctx::of_level(&x, x_inner, a.phase),
            Ctx::of_level(&y, y_inner, b.phase),
        );
        !self.concurrent(x.func, &cx, &cy, cx == cy)
    }

    /// Whether accesses in two contexts may happen at the same time in one run of `home`, from
    /// what `home` sees: which threads it started may be running where.
    fn concurrent_here(&self, home: FnId, a: &Ctx, b: &Ctx, same: bool) -> bool {
        // A unique thread that the other access's thread has joined before it is over; or
        // every thread started where the other one was, all of whose threads a handle the
        // access's thread joined ends (a pool, inside its join wrapper after the join loop).
        let joined = |x: &Ctx, y: &Ctx| match y.thread {
            Thread::Forked(site) => {
                self.mhp.joined_thread(self.handle_sets, site, x.joined)
                    || self
                        .mhp
                        .ended_by(self.handle_sets, home, site, y.point, x.joined)
            }
            Thread::Current => false,
        };
        if joined(a, b) || joined(b, a) {
            return false;
        }
        let live = |site: Site, k: Point, at: Point, inside: bool| {
            self.mhp.live_at(home, site, k, at, inside)
        };
        match (a.thread, b.thread) {
            // One run of a function is one thread.
            (Thread::Current, Thread::Current) => false,
            (Thread::Current, Thread::Forked(site)) => live(
                site,
                b.point,
                a.point,
                self.site_sets.get(a.inside).contains(&site),
            ),
            (Thread::Forked(site), Thread::Current) => live(
                site,
                a.point,
                b.point,
                self.site_sets.get(b.inside).contains(&site),
            ),
            (Thread::Forked(s1), Thread::Forked(s2)) => {
                if same || (s1 == s2 && a.point == b.point) {
                    self.mhp.self_overlap(home, s1, a.point)
                } else {
                    live(s1, a.point, b.point, true) || live(s2, b.point, a.point, true)
                }
            }
        }
    }
}

/// Contexts grouped by everything but their nest (thread, point, joined and started threads,
/// phase): what [`Concurrency::concurrent_here`] and the phases decide on. Each group keeps its
/// members' contexts whole.
fn by_top(cs: &[Member]) -> Vec<Vec<Member>> {
    let mut out: BTreeMap<Top, Vec<Member>> = BTreeMap::new();
    for &(c, k) in cs {
        out.entry(top(&c)).or_default().push((c, k));
    }
    out.into_values().collect()
}

/// A context's top: what [`Concurrency::concurrent_here`] and the phases decide on.
fn top(c: &Ctx) -> Top {
    (c.thread, c.point, c.joined, c.inside, c.phase)
}

/// Which classes are known to race, with how many classes of each cell are not yet known to,
/// so that a pair of cells with nothing left to learn is skipped at once.
#[derive(Clone)]
pub struct Marks {
    racing: Vec<bool>,
    /// The cell of each class, for the classes [`Marks::add_cell`] registered.
    cell_of: Vec<u32>,
    /// Per cell: its classes not yet known to race.
    open: Vec<u32>,
}

impl Marks {
    fn new(n: usize) -> Marks {
        Marks {
            racing: vec![false; n],
            cell_of: vec![u32::MAX; n],
            open: Vec::new(),
        }
    }

    /// Makes room for `n` more classes, none known to race yet.
    fn grow(&mut self, n: usize) {
        self.racing.resize(self.racing.len() + n, false);
        self.cell_of.resize(self.cell_of.len() + n, u32::MAX);
    }

    /// Registers a cell of classes, none known to race yet, and returns it.
    fn add_cell(&mut self, members: &[Member]) -> usize {
        let cell = self.open.len();
        for &(_, k) in members {
            self.cell_of[k] = cell as u32;
        }
        self.open.push(members.len() as u32);
        cell
    }

    /// Notes that class `k` races.
    fn set(&mut self, k: usize) {
        if !std::mem::replace(&mut self.racing[k], true) {
            if let Some(open) = self.open.get_mut(self.cell_of[k] as usize) {
                *open -= 1;
            }
        }
    }

    fn is(&self, k: usize) -> bool {
        self.racing[k]
    }

    /// Whether every class of cell `c` is known to race.
    fn cell_done(&self, c: usize) -> bool {
        self.open.get(c).is_none_or(|&n| n == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;

    /// Groups in which some locations are internal copies and some are not.
    fn group(e: Entry) -> (LocsId, bool) {
        (e.map, e.index.is_multiple_of(3))
    }

    fn entries(raw: Vec<(u32, u32, bool)>) -> Vec<Entry> {
        raw.into_iter()
            .map(|(map, index, writes)| Entry {
                map: LocsId(map),
                index,
                writes,
            })
            .collect()
    }

    proptest! {
        /// A frozen index gives each key's values in the order pushed, and none for a key never
        /// pushed (a first id inside, between or beyond the runs).
        #[test]
        fn sorted_runs_give_each_keys_values_in_order(
            pairs in vec((0..6u32, 0..4u32, any::<u16>()), 0..40),
            asked in vec((0..8u32, 0..5u32), 0..20),
        ) {
            let mut runs: SortedRuns<FnId, u32, u16> = SortedRuns::default();
            for &(a, b, v) in &pairs {
                runs.push((FnId(a), b), v);
            }
            runs.freeze();
            for (a, b) in asked {
                let expected: Vec<u16> = pairs
                    .iter()
                    .filter(|&&(x, y, _)| (x, y) == (a, b))
                    .map(|&(_, _, v)| v)
                    .collect();
                let got = runs.get((FnId(a), b)).map(<[u16]>::to_vec).unwrap_or_default();
                prop_assert_eq!(got, expected);
            }
        }

        /// What a source deferred into the home's component adds to a copy, read group by
        /// group, is the merge of its entries with all of the home's, less the home's.
        #[test]
        fn entries_beside_is_the_merge_less_the_home(
            home in vec((0..4u32, 0..6u32, any::<bool>()), 0..24),
            others in vec((0..5u32, 0..6u32, any::<bool>()), 0..8),
        ) {
            // The home has one entry per location of a map, sorted.
            let mut home = entries(home);
            home.sort_unstable();
            home.dedup_by_key(|e| (e.map, e.index));
            let others = entries(others);
            let at_home = HomeEntries::new(&home, true, group);
            let mut merged: Vec<Entry> = others.iter().chain(&home).copied().collect();
            merge_writes(&mut merged, group);
            merged.retain(|e| !at_home.has(e));
            let mut beside = entries_beside(others, &at_home, group);
            beside.sort_unstable();
            beside.dedup();
            prop_assert_eq!(beside, merged);
        }
    }
}
