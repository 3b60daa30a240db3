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

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use super::facts::{witnesses, CFact, CFactId, Derivations, Tagged, Thread};
use super::locksets::{Held, LockSets, SetId};
use super::mhp::{HandleSetId, HandleSets, Mhp, Point, SiteSetId, SiteSets};
use super::nest::{Level, NestId, Nests};
use super::phases::Phase;
use super::privacy::Homes;
use super::{AccessId, FnId, ThreadProgram};
use crate::cfl::Components;
use crate::constraints::{Rho, Site};
use crate::ids::IndexVec;
use crate::technique::{Technique, Techniques};

/// One access of a racy location, as the thread analysis sees it at the location's home.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RaceAccess {
    pub access: AccessId,
    /// The locks held (linear lock class representatives), as tokens: a lock held exclusively
    /// has both of its tokens, one held for reading only its shared token.
    pub held: Vec<Held>,
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

struct Checker<'a> {
    conc: Concurrency<'a>,
    sets: &'a LockSets,
    facts: &'a IndexVec<CFactId, CFact>,
    derivations: &'a Derivations,
    techniques: Techniques,
    /// [`witnesses`] by the facts asked for (sorted): the listings of locations that share
    /// facts (copies made from the same sources, components reached from the same callers) ask
    /// for the same groups again.
    witnessed: std::cell::RefCell<FxHashMap<Vec<CFactId>, std::rc::Rc<[AccessId]>>>,
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

/// What the check reads.
pub struct CheckInputs<'a> {
    pub p: &'a ThreadProgram,
    pub mhp: &'a Mhp,
    pub homes: &'a Homes,
    pub sets: &'a LockSets,
    pub handle_sets: &'a HandleSets,
    pub site_sets: &'a SiteSets,
    /// The facts' nests ([`super::nest`]).
    pub nests: &'a Nests,
    pub facts: &'a IndexVec<CFactId, CFact>,
    /// How the facts were derived (for the accesses behind them).
    pub derivations: &'a Derivations,
    /// The facts tagged with a call at the root.
    pub tagged: &'a Tagged,
    /// The flow components facts are kept at ([`super::facts::FactKey::rho`]).
    pub comps: &'a Components,
    /// [`Technique::Sharing`] off: every pair of accesses is concurrent, even in one thread.
    /// [`Technique::DownFork`] off: a callee's own location is one location for all its runs, so
    /// internal copies ([`FactKey::internal`](super::facts::FactKey)) are compared too.
    pub techniques: Techniques,
}

/// Checks every location of `p.checked` and returns the warnings, sorted.
pub fn check(inputs: CheckInputs<'_>) -> Vec<RaceWarning> {
    let CheckInputs {
        p,
        mhp,
        homes,
        sets,
        handle_sets,
        site_sets,
        nests,
        facts,
        derivations,
        tagged,
        comps,
        techniques,
    } = inputs;
    let Some(main) = p.main else {
        return Vec::new();
    };
    let local: FxHashSet<Rho> = p.thread_local.iter().copied().collect();
    let mut checked: Vec<Rho> = p.checked.to_vec();
    checked.sort();
    checked.dedup();
    // The facts of each component holding a checked label, by the function they are in.
    let wanted: FxHashSet<Rho> = checked.iter().map(|&r| comps.of[r]).collect();
    let mut of_comp: FxHashMap<(Rho, FnId), Vec<CFactId>> = FxHashMap::default();
    for (id, f) in facts.iter_enumerated() {
        if wanted.contains(&f.rho) {
            of_comp.entry((f.rho, f.func)).or_default().push(id);
        }
    }
    let checker = Checker {
        conc: Concurrency {
            mhp,
            handle_sets,
            site_sets,
            nests,
            techniques,
        },
        sets,
        facts,
        derivations,
        techniques,
        witnessed: Default::default(),
    };
    // Labels of one component have the same facts: those checked at the same home get the same
    // verdict there, and those with the same owner the same verdict at the owner, each computed
    // once; the warnings of one verdict share its list of accesses.
    let mut at_home_verdicts: FxHashMap<(Rho, FnId), Option<Accesses>> = FxHashMap::default();
    let mut owner_verdicts: FxHashMap<(Rho, FnId), Option<Accesses>> = FxHashMap::default();
    let mut warnings = Vec::new();
    for &rho in &checked {
        if local.contains(&rho) {
            continue;
        }
        let comp = comps.of[rho];
        let home = homes.home_of(rho).unwrap_or(main);
        // A label without facts at its home (untagged, or tagged at the root) is not checked.
        let at_home = match of_comp.get(&(comp, home)) {
            Some(ids) => ids.as_slice(),
            None if home == main && tagged.reaches(comp) => &[],
            None => continue,
        };
        let found = at_home_verdicts
            .entry((comp, home))
            .or_insert_with(|| {
                // Facts at the label's home are untagged: they hold for every copy. Then each
                // copy made by a call at the root ([`Tagged`]): tagged facts are their sources'
                // (a source standing for a tagged fact gives the check the same classes, write
                // flags and accesses), and copies with the same sources get the same verdict.
                let copies = if home == main {
                    tagged.copies(comp)
                } else {
                    Vec::new()
                };
                let mut memo = FxHashMap::default();
                let keys = checker.racing_keys(home, at_home, &mut memo);
                let mut racing = checker.facts_of(at_home, &keys);
                for group in &copies {
                    let mut merged = at_home.to_vec();
                    merged.extend(group.iter().copied());
                    let keys = checker.racing_keys(home, &merged, &mut memo);
                    racing.extend(checker.facts_of(&merged, &keys));
                }
                // One warning per location as soon as one copy races, listing the accesses of
                // every copy: two objects made by one allocation site, each raced on by its own
                // threads, are both in it.
                (!racing.is_empty()).then(|| {
                    let mut all = at_home.to_vec();
                    all.extend(copies.into_iter().flatten());
                    checker.listing(&all, &racing).into()
                })
            })
            .clone()
            .map(|accesses| (home, accesses));
        // Labels checked at `main` that belong to another function are also checked there,
        // where the accesses of one run of it meet (above it they become internal copies).
        let found = found.or_else(|| {
            let owner = homes.owner_of(rho).filter(|_| home == main)?;
            owner_verdicts
                .entry((comp, owner))
                .or_insert_with(|| {
                    let group = of_comp.get(&(comp, owner))?;
                    let racing = checker.racing_keys(owner, group, &mut FxHashMap::default());
                    (!racing.is_empty()).then(|| {
                        let racing = checker.facts_of(group, &racing);
                        checker.listing(group, &racing).into()
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
    warnings.sort();
    warnings
}

impl Checker<'_> {
    /// The class key of a fact: what makes facts interchangeable for the pairwise check.
    fn key(&self, id: CFactId) -> ClassKey {
        let f = &self.facts[id];
        let ctx = Ctx {
            thread: f.thread,
            point: f.point,
            joined: f.joined,
            inside: f.inside,
            nest: f.nest,
            phase: f.phase,
        };
        (ctx, f.internal, f.held, f.writes)
    }

    /// The facts among `ids` (of one location at `home`) in a racing pair — two accesses that
    /// may happen at the same time, one writing, without a common lock — as the keys of their
    /// classes. Empty when the location is consistently correlated. The answer depends only on
    /// the set of classes, which the copies of one allocation often share: `memo` keeps it per
    /// set.
    fn racing_keys(
        &self,
        home: FnId,
        ids: &[CFactId],
        memo: &mut FxHashMap<Vec<ClassKey>, Vec<ClassKey>>,
    ) -> Vec<ClassKey> {
        if !ids.iter().any(|&id| self.facts[id].writes) {
            return Vec::new();
        }
        let mut keys: Vec<ClassKey> = ids.iter().map(|&id| self.key(id)).collect();
        keys.sort_unstable();
        keys.dedup();
        if let Some(found) = memo.get(&keys) {
            return found.clone();
        }
        let found = self.racing_classes(home, &keys);
        memo.insert(keys, found.clone());
        found
    }

    /// The classes of `keys` in a racing pair. Classes are compared by lock set first, so that
    /// two sets with a common lock skip every pair of their classes at once (a location's
    /// classes are many, its lock sets few); a pair already known to race is not compared again.
    fn racing_classes(&self, home: FnId, keys: &[ClassKey]) -> Vec<ClassKey> {
        let mut by_held: BTreeMap<SetId, Vec<usize>> = BTreeMap::new();
        for (k, key) in keys.iter().enumerate() {
            by_held.entry(key.2).or_default().push(k);
        }
        let groups: Vec<(SetId, Vec<usize>)> = by_held.into_iter().collect();
        let mut racing = vec![false; keys.len()];
        for (g, (held_g, members_g)) in groups.iter().enumerate() {
            for (held_h, members_h) in &groups[g..] {
                if self.common_lock(*held_g, *held_h) {
                    continue;
                }
                for &i in members_g {
                    for &j in members_h {
                        // Within one group, each unordered pair once.
                        if (held_g == held_h && j < i) || (racing[i] && racing[j]) {
                            continue;
                        }
                        let ((a, a_internal, _, a_writes), (b, b_internal, _, b_writes)) =
                            (&keys[i], &keys[j]);
                        if !(*a_writes || *b_writes) {
                            continue;
                        }
                        // Two copies made by runs of a callee: different locations, or the same
                        // run, compared in the callee.
                        if self.techniques.has(Technique::DownFork) && *a_internal && *b_internal {
                            continue;
                        }
                        if self.conc.concurrent(home, a, b, i == j) {
                            racing[i] = true;
                            racing[j] = true;
                        }
                    }
                }
            }
        }
        keys.iter()
            .zip(racing)
            .filter(|(_, r)| *r)
            .map(|(k, _)| *k)
            .collect()
    }

    /// The facts of `ids` whose class is one of `keys`.
    fn facts_of(&self, ids: &[CFactId], keys: &[ClassKey]) -> FxHashSet<CFactId> {
        let keys: FxHashSet<ClassKey> = keys.iter().copied().collect();
        ids.iter()
            .copied()
            .filter(|&id| keys.contains(&self.key(id)))
            .collect()
    }

    /// The warning for a racy location: every access of its facts `ids`, those behind a fact of
    /// `racing` marked as racing (the others are context: a maintainer needs to see where it is
    /// protected to see where it is not), with the locks held and the thread. The facts are
    /// grouped by thread, locks and whether they race, and the derivations of each group walked
    /// once ([`witnesses`]). An access behind both kinds of facts is racing.
    fn listing(&self, ids: &[CFactId], racing: &FxHashSet<CFactId>) -> Vec<RaceAccess> {
        let mut groups: BTreeMap<(Thread, SetId, bool), Vec<CFactId>> = BTreeMap::new();
        for &id in ids {
            let f = &self.facts[id];
            let key = (f.thread, f.held, !racing.contains(&id));
            groups.entry(key).or_default().push(id);
        }
        let mut accesses: Vec<RaceAccess> = Vec::new();
        for ((thread, held, context), mut group) in groups {
            let held: Vec<Held> = self
                .sets
                .get(held)
                .iter()
                .copied()
                .filter(|h| !h.again)
                .collect();
            group.sort_unstable();
            group.dedup();
            let behind = self
                .witnessed
                .borrow_mut()
                .entry(group)
                .or_insert_with_key(|group| witnesses(self.derivations, group).into())
                .clone();
            for &a in behind.iter() {
                accesses.push(RaceAccess {
                    access: a,
                    held: held.clone(),
                    thread,
                    racing: !context,
                });
            }
        }
        // Racing first among equal accesses, so that the dedup keeps it.
        accesses.sort_by(|x, y| {
            (x.access, &x.held, x.thread, !x.racing).cmp(&(y.access, &y.held, y.thread, !y.racing))
        });
        accesses.dedup_by(|x, y| (x.access, &x.held, x.thread) == (y.access, &y.held, y.thread));
        accesses
    }

    fn common_lock(&self, a: SetId, b: SetId) -> bool {
        self.sets.common_lock(a, b)
    }
}

impl Concurrency<'_> {
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
        // A unique thread that the other access's thread has joined before it is over.
        let joined = |x: &Ctx, y: &Ctx| match y.thread {
            Thread::Forked(site) => self.mhp.joined_thread(self.handle_sets, site, x.joined),
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
