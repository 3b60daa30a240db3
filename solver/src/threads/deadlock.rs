//! Potential deadlocks (RacerX §4, seed `000_…`): cycles in the lock order, and lock calls that
//! wait for a lock their own thread holds.
//!
//! The lock order comes from [`super::order`]: each lock call that waits, seen from every
//! function up its call chains, with the locks held. In one function (a *level*), a call fact
//! that waits for `B` while holding `A` is an edge `A → B` of that level's lock-order graph. A
//! cycle `L₀ → L₁ → … → L₀` is a potential deadlock when one call fact per edge can be chosen
//! such that
//!
//! - every two of them may be made at the same time, by two different threads (the race
//!   check's rule for two accesses, [`Concurrency`]): a thread cannot wait for itself, so the
//!   facts come from at least two thread instances, and a thread started in a loop counts as
//!   several;
//! - each one waits for a lock the next one holds in a mode that excludes it (a reader waiting
//!   for a lock another reader holds does not wait);
//! - no *gate lock* is held by all of them: a linear lock held on every path to each of them
//!   ([`LockState::gate`](super::order::LockState::gate)), exclusively by at least one, lets
//!   only one of them in at a time. A lock held on some paths only gates nothing: the thread
//!   that took another path waits without it (RacerX's gate locks are those held, path by
//!   path; one fact stands for all the paths to its lock call).
//!
//! A non-linear lock (one label for many run-time locks: an array of mutexes, the mutexes of
//! list nodes) held while its own label is acquired is some lock of the label waiting for
//! another: an edge `a → a`. One thread doing that is not a deadlock (it may take `a[0]` then
//! `a[1]`), so such an edge makes a cycle only with a second one — another lock call, or the
//! same one made by a second thread instance — that may be made at the same time: two elements
//! locked in opposite orders by two threads. This is sound (a lock order by index or address is
//! not seen, and such code is reported). A linear lock acquired while held is a *self-deadlock*
//! of one thread, unless the call does not wait (a try-lock makes no call fact), the lock is held
//! and taken for reading, or it may be a recursive mutex (initialised with an attribute object,
//! [`ThreadProgram::attributed_locks`]).
//!
//! Each deadlock is reported once, at the level closest to `main` that sees it (`main` itself
//! for global locks); the same lock calls seen again below are not repeated. Cycles are searched
//! up to [`MAX_LOCKS`] locks and [`MAX_WALK`] steps per level, shortest first (a cycle beyond is
//! not found, and a level whose walk ran out of steps is reported: [`CyclesCut`]), and
//! at most [`MAX_STEPS`] choices of facts per cycle: beyond that, every fact of the cycle's edges
//! is taken as part of it (reported, never dropped).

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap;

use super::check::{Concurrency, Ctx};
use super::facts::Thread;
use super::linearity::Linearity;
use super::locksets::{Held, LockSets, SetId};
use super::order::{CallFact, Order};
use super::structure::{CallPoint, Structure};
use super::{AcqId, FnId, Mode, ThreadProgram};
use crate::constraints::Lock;
use crate::locks::LockTable;
use crate::stats::Stats;
use crate::technique::{Technique, Techniques};

/// The most locks of a cycle searched for (RacerX's `n`).
pub const MAX_LOCKS: usize = 6;

/// The most choices of call facts tried per cycle.
pub const MAX_STEPS: usize = 20_000;

/// One lock call of a deadlock, as its level sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acquisition {
    pub acq: AcqId,
    /// The lock it waits for (a class representative at the level).
    pub lock: Lock,
    pub mode: Mode,
    /// The locks held when it is made, as tokens ([`Held`]).
    pub held: Vec<Held>,
    /// The thread making it, relative to a run of the level.
    pub thread: Thread,
    /// The calls (and the fork, for another thread) from the level down to the lock call,
    /// along which it holds these locks.
    pub steps: Vec<CallPoint>,
    /// The lock calls that may have taken the cycle's lock this one holds (the lock before
    /// the one it waits for; for a self-deadlock, that lock), found along `steps`
    /// ([`super::held_at`]).
    pub held_at: Vec<AcqId>,
}

/// A potential deadlock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockWarning {
    /// The function of one run of which the threads and locks are seen (`main` for global
    /// locks).
    pub level: FnId,
    /// The cycle: each lock is held while the next one (the first, after the last) is waited
    /// for. One lock for a self-deadlock, and for a cycle between two locks of one non-linear
    /// label.
    pub locks: Vec<Lock>,
    /// The locks of the cycle that stand for several run-time locks, sorted.
    pub several: Vec<Lock>,
    /// A lock call waits for a lock its own thread holds (`locks` is that lock).
    pub self_deadlock: bool,
    /// The lock calls of the cycle: those that wait for `locks[1]` holding `locks[0]`, then for
    /// `locks[2]`, …; each group sorted.
    pub acquisitions: Vec<Acquisition>,
}

/// What the deadlock check reads.
pub struct DeadlockInputs<'a> {
    pub constraints: &'a crate::constraints::Constraints,
    pub scopes: &'a crate::scope::ScopeTree,
    pub program: &'a ThreadProgram,
    pub structure: &'a Structure,
    pub mhp: &'a super::mhp::Mhp,
    pub linearity: &'a Linearity,
    pub order: &'a Order,
    pub techniques: Techniques,
    pub stats: &'a Stats,
}

/// The edges of one level's lock-order graph: `(from, to)` → the facts (indexes into the
/// order's facts) that wait for `to` holding `from`.
type Edges = BTreeMap<(Lock, Lock), Vec<usize>>;

struct Checker<'a> {
    inputs: DeadlockInputs<'a>,
    conc: Concurrency<'a>,
    locks: &'a mut LockTable,
    /// The lock classes that may be recursive mutexes.
    recursive: BTreeSet<Lock>,
    /// The lock classes of unknown code's memory ([`ThreadProgram::external_locks`]).
    external: BTreeSet<Lock>,
    /// The levels whose cycles were not all searched.
    cut: Vec<CyclesCut>,
    /// Whether the lock calls of two facts of the level searched may be made at the same time
    /// ([`Checker::together`]).
    together: FxHashMap<(u32, u32), bool>,
}

/// A level whose lock order has more cycles than the search walks ([`MAX_WALK`] steps): its
/// cycles of `from_locks` locks or more were not all searched, so a deadlock among them may not
/// be reported (every shorter cycle was).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CyclesCut {
    pub level: FnId,
    pub from_locks: usize,
}

/// Finds the potential deadlocks of a program from its lock order: per level (`main` first,
/// then callers before callees), its self-deadlocks, then its cycles, each in lock order; with
/// the levels whose cycles were not all searched.
pub fn find(
    inputs: DeadlockInputs<'_>,
    locks: &mut LockTable,
) -> (Vec<DeadlockWarning>, Vec<CyclesCut>) {
    let order = inputs.order;
    let conc = Concurrency {
        mhp: inputs.mhp,
        handle_sets: &order.handle_sets,
        site_sets: &order.site_sets,
        nests: &order.nests,
        techniques: inputs.techniques,
    };
    let recursive = maybe_recursive(inputs.program, locks);
    let external = external_classes(inputs.program, locks);
    let mut checker = Checker {
        inputs,
        conc,
        locks,
        recursive,
        external,
        cut: Vec::new(),
        together: FxHashMap::default(),
    };
    let mut by_level: BTreeMap<FnId, Vec<usize>> = BTreeMap::new();
    for (k, f) in order.facts.iter().enumerate() {
        by_level.entry(f.func).or_default().push(k);
    }
    let mut levels: Vec<FnId> = by_level.keys().copied().collect();
    let (p, s) = (checker.inputs.program, checker.inputs.structure);
    levels.sort_by_key(|&f| (Some(f) != p.main, std::cmp::Reverse(s.thread_scc_of[f]), f));
    let mut warnings: Vec<DeadlockWarning> = Vec::new();
    let mut reported = Reported::default();
    let mut self_reported: BTreeSet<AcqId> = BTreeSet::new();
    for level in levels {
        let ids = &by_level[&level];
        warnings.extend(checker.self_deadlocks(level, ids, &mut self_reported));
        warnings.extend(checker.cycles(level, ids, &mut reported));
    }
    let inputs = &checker.inputs;
    let mut search = super::held_at::Search::new(inputs.constraints, inputs.scopes, inputs.program);
    for w in &mut warnings {
        for a in &mut w.acquisitions {
            let held = held_lock(&w.locks, a.lock, w.self_deadlock);
            a.held_at = search.held_at(checker.locks, &a.steps, a.acq, held);
        }
    }
    (warnings, checker.cut)
}

/// The lock classes of unknown code's memory ([`ThreadProgram::external_locks`]).
pub(super) fn external_classes(p: &ThreadProgram, locks: &mut LockTable) -> BTreeSet<Lock> {
    p.external_locks.iter().map(|&l| locks.find(l)).collect()
}

/// Whether lock `l` may be any lock: it names no lock the program made
/// ([`Linearity::is_ungrounded`]: a pointer never set) or is a lock of unknown code's memory
/// (`external`, [`external_classes`]: unknown code may hand out a pointer to any lock).
pub(super) fn may_be_any(
    external: &BTreeSet<Lock>,
    linearity: &Linearity,
    locks: &mut LockTable,
    l: Lock,
) -> bool {
    let r = locks.find(l);
    external.contains(&r) || linearity.is_ungrounded(locks, r)
}

/// The cycle's lock a lock call waiting for `waits` holds: the one before it in the cycle
/// (`locks[i]` is held while `locks[i + 1]` is waited for); the lock itself for a
/// self-deadlock or a cycle of one lock that stands for several.
pub fn held_lock(locks: &[Lock], waits: Lock, self_deadlock: bool) -> Lock {
    if self_deadlock || locks.len() == 1 {
        return waits;
    }
    let i = locks.iter().position(|&l| l == waits).unwrap_or(0);
    locks[(i + locks.len() - 1) % locks.len()]
}

/// The lock classes initialised with an attribute object, with every class related to one by
/// an image at a call (both ways: the helper's lock parameter and the caller's lock), so that
/// each level's name of such a lock is among them.
fn maybe_recursive(p: &ThreadProgram, locks: &mut LockTable) -> BTreeSet<Lock> {
    let mut out: BTreeSet<Lock> = p.attributed_locks.iter().map(|&l| locks.find(l)).collect();
    if out.is_empty() {
        return out;
    }
    let pairs = locks.all_images();
    loop {
        crate::budget::poll_now();
        let before = out.len();
        for &(generic, _, image) in &pairs {
            if out.contains(&generic) || out.contains(&image) {
                out.insert(generic);
                out.insert(image);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

impl Checker<'_> {
    fn sets(&self) -> &LockSets {
        &self.inputs.order.sets
    }

    fn fact(&self, k: usize) -> &CallFact {
        &self.inputs.order.facts[k]
    }

    fn linear(&mut self, l: Lock) -> bool {
        self.inputs.linearity.is_linear(self.locks, l)
    }

    /// The locks of a held set, each once.
    fn held_locks(&self, held: SetId) -> Vec<Lock> {
        let mut v: Vec<Lock> = self.sets().get(held).iter().map(|h| h.lock).collect();
        v.dedup();
        v
    }

    /// How a fact holds `lock`: `Some(Exclusive)` when exclusively, `Some(Shared)` for reading.
    fn holds(&self, k: usize, lock: Lock) -> Option<Mode> {
        self.holds_in(self.fact(k).state.held, lock)
    }

    /// How a set of held locks holds `lock`, if it does.
    fn holds_in(&self, set: SetId, lock: Lock) -> Option<Mode> {
        let held = self.sets().get(set);
        let mut modes = held.iter().filter(|h| h.lock == lock).map(|h| h.mode);
        let first = modes.next()?;
        Some(
            if first == Mode::Exclusive || modes.any(|m| m == Mode::Exclusive) {
                Mode::Exclusive
            } else {
                Mode::Shared
            },
        )
    }

    fn acquisition(&self, k: usize) -> Acquisition {
        let f = self.fact(k);
        Acquisition {
            acq: f.acq,
            lock: f.lock,
            mode: f.mode,
            held: self.sets().get(f.state.held).to_vec(),
            thread: f.ctx.thread,
            steps: self.inputs.order.steps(self.inputs.structure, k),
            held_at: Vec::new(),
        }
    }

    /// The lock calls of `facts` (ascending), one entry per lock call, locks and thread: the
    /// first fact's, derived first, with the shortest path.
    ///
    /// The path down to the lock call ([`Order::steps`]) is the costly part of an entry, and a
    /// lock call reached through a thousand contexts of one class is one entry: the facts are
    /// sorted and deduplicated by their key first, and only the entries kept get their path.
    fn acquisitions(&self, facts: impl Iterator<Item = usize>) -> Vec<Acquisition> {
        // What makes two lock calls of a warning one entry.
        let key = |k: usize| {
            let f = self.fact(k);
            (f.acq, self.sets().get(f.state.held), f.ctx.thread)
        };
        let mut firsts: Vec<usize> = facts.collect();
        // A stable sort: among equal keys the first fact stays first.
        firsts.sort_by(|&a, &b| key(a).cmp(&key(b)));
        firsts.dedup_by(|a, b| key(*a) == key(*b));
        firsts.into_iter().map(|k| self.acquisition(k)).collect()
    }

    /// The lock calls at `level` that wait for a linear lock their own thread holds, each lock
    /// call once over all levels (`done`).
    fn self_deadlocks(
        &mut self,
        level: FnId,
        ids: &[usize],
        done: &mut BTreeSet<AcqId>,
    ) -> Vec<DeadlockWarning> {
        let mut found: BTreeMap<AcqId, Vec<usize>> = BTreeMap::new();
        for &k in ids {
            let f = *self.fact(k);
            // Held on every path: one taken under a condition the release repeats is not.
            let Some(held) = self.holds_in(f.state.must_held, f.lock) else {
                continue;
            };
            // Two locks through pointers to no lock the program made may be two locks.
            if self.any(f.lock) {
                continue;
            }
            let shared = f.mode == Mode::Shared && held == Mode::Shared;
            if shared || done.contains(&f.acq) || self.recursive.contains(&f.lock) {
                continue;
            }
            if self.linear(f.lock) {
                found.entry(f.acq).or_default().push(k);
            }
        }
        done.extend(found.keys().copied());
        // One entry per lock call: its first context.
        found
            .into_values()
            .filter_map(|facts| self.acquisitions(facts.into_iter()).into_iter().next())
            .map(|a| DeadlockWarning {
                level,
                locks: vec![a.lock],
                several: Vec::new(),
                self_deadlock: true,
                acquisitions: vec![a],
            })
            .collect()
    }

    /// The cycles of `level`'s lock-order graph that are potential deadlocks, but those whose
    /// lock calls are all those of a deadlock reported before (`reported`, to which this
    /// level's are added).
    fn cycles(
        &mut self,
        level: FnId,
        ids: &[usize],
        reported: &mut Reported,
    ) -> Vec<DeadlockWarning> {
        // Two lock calls of one thread never wait for each other: a level whose facts are all
        // its own thread's has no deadlock among threads.
        let sharing = self.inputs.techniques.has(Technique::Sharing);
        if sharing
            && ids
                .iter()
                .all(|&k| self.fact(k).ctx.thread == Thread::Current)
        {
            return Vec::new();
        }
        self.together.clear();
        let mut edges: Edges = BTreeMap::new();
        for &k in ids {
            let f = *self.fact(k);
            for a in self.held_locks(f.state.held) {
                if a != f.lock || !self.linear(a) {
                    edges.entry((a, f.lock)).or_default().push(k);
                }
            }
        }
        self.any_lock(&mut edges);
        let mut out = Vec::new();
        let mut by_edge: BTreeMap<(Lock, Lock), EdgeClasses> = BTreeMap::new();
        let (cycles, cut) = elementary_cycles(&edges, self.inputs.stats);
        if let Some(from_locks) = cut {
            self.cut.push(CyclesCut { level, from_locks });
        }
        for cycle in cycles {
            let path = cycle_path(&cycle);
            let n = path.len();
            for i in 0..n {
                let edge = (path[i], path[(i + 1) % n]);
                by_edge
                    .entry(edge)
                    .or_insert_with(|| self.classes(&edges[&edge], reported));
            }
            let classes: Vec<&EdgeClasses> = (0..n)
                .map(|i| &by_edge[&(path[i], path[(i + 1) % n])])
                .collect();
            // The deadlock's lock calls are among its edges': when one deadlock reported has
            // all of those, it has its.
            let lists: Vec<&[u32]> = classes.iter().map(|c| c.within.as_slice()).collect();
            if meet(&lists) {
                continue;
            }
            let before = reported.len();
            if let Some(w) = self.deadlock(level, &cycle, &classes, reported) {
                out.push(w);
            }
            // A deadlock reported now has all the lock calls of some edges of this level.
            for c in by_edge.values_mut() {
                reported.extend_within(before, &c.acqs, &mut c.within);
            }
        }
        out
    }

    /// Whether lock `l` may be any lock ([`may_be_any`]).
    fn any(&mut self, l: Lock) -> bool {
        may_be_any(&self.external, self.inputs.linearity, self.locks, l)
    }

    /// A lock that may be any lock ([`Checker::any`]) may be any lock of the level: an edge to
    /// it (`a → x`: holding `a`, waiting for it) is also an edge `a → l` for each lock `l` of
    /// the level that waits for `a` (`l → a`), and an edge from it (`x → b`) is also `l → b`
    /// for each `b → l`, with the same facts. So two threads meeting in opposite orders on a
    /// lock and an unknown one make a cycle. The edge itself stays, for a lock of neither (two
    /// threads meeting on one lock the program did not make). Longer cycles through an unknown
    /// lock are not searched: substituting every lock for it on every edge makes the graph
    /// nearly complete, and its cycles up to [`MAX_LOCKS`] too many to walk (README, "Where the
    /// analysis is knowingly unsound"). Locks are not told apart by type here either.
    fn any_lock(&mut self, edges: &mut Edges) {
        let mut wild: BTreeSet<Lock> = BTreeSet::new();
        for &(a, b) in edges.keys() {
            for l in [a, b] {
                if self.any(l) {
                    wild.insert(l);
                }
            }
        }
        if wild.is_empty() {
            return;
        }
        let original: BTreeSet<(Lock, Lock)> = edges.keys().copied().collect();
        // The same edges by their target: `(to, from)`.
        let into: BTreeSet<(Lock, Lock)> = original.iter().map(|&(a, b)| (b, a)).collect();
        let mut added: Vec<((Lock, Lock), Vec<usize>)> = Vec::new();
        for (&(a, b), facts) in edges.iter() {
            match (wild.contains(&a), wild.contains(&b)) {
                // Holding the unknown lock, waiting for `b`: it may be any `l` with `b → l`.
                (true, false) => {
                    for &(from, l) in original.range((b, Lock(0))..) {
                        if from != b {
                            break;
                        }
                        if l != b && !wild.contains(&l) {
                            added.push(((l, b), facts.clone()));
                        }
                    }
                }
                // Holding `a`, waiting for the unknown lock: it may be any `l` with `l → a`.
                (false, true) => {
                    for &(to, l) in into.range((a, Lock(0))..) {
                        if to != a {
                            break;
                        }
                        if l != a && !wild.contains(&l) {
                            added.push(((a, l), facts.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
        for (edge, facts) in added {
            let list = edges.entry(edge).or_default();
            list.extend(facts);
            list.sort_unstable();
            list.dedup();
        }
    }

    /// The warning for a cycle of locks, if some choice of its facts (`classes`, per edge of
    /// its [`cycle_path`]) may deadlock and its lock calls are not all those of a deadlock
    /// reported before (`reported`, to which they are then added).
    fn deadlock(
        &mut self,
        level: FnId,
        cycle: &[Lock],
        classes: &[&EdgeClasses],
        reported: &mut Reported,
    ) -> Option<DeadlockWarning> {
        let path = cycle_path(cycle);
        let n = path.len();
        let groups: Vec<Vec<usize>> = classes
            .iter()
            .map(|c| c.classes.keys().copied().collect())
            .collect();
        let mut search = Search {
            level,
            path: &path,
            groups: &groups,
            chosen: Vec::with_capacity(n),
            used: vec![BTreeSet::new(); n],
            steps: 0,
        };
        self.choose(&mut search);
        if search.steps > MAX_STEPS {
            for (i, g) in groups.iter().enumerate() {
                search.used[i].extend(g.iter().copied());
            }
        }
        if search.used.iter().all(BTreeSet::is_empty) {
            return None;
        }
        let members = |i: usize| -> Vec<usize> {
            let mut v: Vec<usize> = search.used[i]
                .iter()
                .flat_map(|r| classes[i].classes[r].iter().copied())
                .collect();
            v.sort_unstable();
            v
        };
        let calls: BTreeSet<AcqId> = (0..n).flat_map(members).map(|k| self.fact(k).acq).collect();
        if reported.covers(&calls) {
            return None;
        }
        reported.add(calls);
        let acquisitions = if cycle.len() == 1 {
            let both: BTreeSet<usize> = (0..n).flat_map(members).collect();
            self.acquisitions(both.into_iter())
        } else {
            (0..n)
                .flat_map(|i| self.acquisitions(members(i).into_iter()))
                .collect()
        };
        let mut several: Vec<Lock> = cycle.iter().copied().filter(|&l| !self.linear(l)).collect();
        several.sort();
        several.dedup();
        Some(DeadlockWarning {
            level,
            locks: cycle.to_vec(),
            several,
            self_deadlock: false,
            acquisitions,
        })
    }

    /// The facts of one edge by class, with their lock calls and the deadlocks reported that
    /// have all of them.
    fn classes(&self, facts: &[usize], reported: &Reported) -> EdgeClasses {
        let mut by_key: BTreeMap<(Ctx, SetId, SetId, Mode), Vec<usize>> = BTreeMap::new();
        for &k in facts {
            let f = self.fact(k);
            by_key
                .entry((f.ctx, f.state.held, f.state.gate, f.mode))
                .or_default()
                .push(k);
        }
        let acqs = facts.iter().map(|&k| self.fact(k).acq).collect();
        EdgeClasses {
            within: reported.having_all(&acqs),
            acqs,
            classes: by_key.into_values().map(|v| (v[0], v)).collect(),
        }
    }

    /// Extends `search.chosen` with a fact for the next edge, in every way that may still
    /// deadlock, recording the facts of each complete choice.
    fn choose(&mut self, search: &mut Search<'_>) {
        search.steps += 1;
        if search.steps > MAX_STEPS {
            return;
        }
        let i = search.chosen.len();
        let n = search.path.len();
        if i == n {
            if self.blocks(search.chosen[n - 1], search.chosen[0], search.path[0])
                && !self.gated(&search.chosen)
            {
                for (e, &k) in search.chosen.iter().enumerate() {
                    search.used[e].insert(k);
                }
            }
            return;
        }
        for &k in &search.groups[i] {
            let fits = (i == 0 || self.blocks(search.chosen[i - 1], k, search.path[i]))
                && search
                    .chosen
                    .iter()
                    .all(|&j| self.together(search.level, j, k));
            if fits {
                search.chosen.push(k);
                self.choose(search);
                search.chosen.pop();
            }
        }
    }

    /// Whether the call of fact `waiter` waits for `lock` while the thread of fact `holder`
    /// holds it: unless both are readers.
    fn blocks(&self, waiter: usize, holder: usize, lock: Lock) -> bool {
        self.fact(waiter).mode == Mode::Exclusive
            || self.holds(holder, lock) == Some(Mode::Exclusive)
    }

    /// Whether two facts' lock calls may be made at the same time by two threads; memoised
    /// by the pair of facts, which the search of a cycle's facts asks again and again (an
    /// interpreter whose operations call back holding their module's lock: 20,000 choices for
    /// each of hundreds of cycles).
    fn together(&mut self, level: FnId, a: usize, b: usize) -> bool {
        let key = (a as u32, b as u32);
        if let Some(&known) = self.together.get(&key) {
            return known;
        }
        let (x, y) = (&self.fact(a).ctx, &self.fact(b).ctx);
        let known = self.conc.concurrent(level, x, y, x == y);
        self.together.insert(key, known);
        known
    }

    /// Whether a gate lock orders the chosen facts: a linear lock held on every path to each of
    /// them, exclusively by one at least.
    fn gated(&mut self, chosen: &[usize]) -> bool {
        let first = self.held_locks(self.fact(chosen[0]).state.gate);
        first.into_iter().any(|g| {
            let modes: Option<Vec<Mode>> = chosen
                .iter()
                .map(|&k| self.holds_in(self.fact(k).state.gate, g))
                .collect();
            // A lock through a pointer to no lock the program made may be a different lock
            // in each thread: it gates nothing.
            modes.is_some_and(|m| m.contains(&Mode::Exclusive)) && self.linear(g) && !self.any(g)
        })
    }
}

/// The facts of one edge of a level's lock-order graph. Facts that differ only in their lock
/// call are interchangeable for the search of a cycle, which runs on one of each class
/// (context, held locks, gate, mode): a class chosen stands for all.
struct EdgeClasses {
    /// The first fact of each class, with every fact of the class.
    classes: BTreeMap<usize, Vec<usize>>,
    /// The lock calls of the edge's facts.
    acqs: BTreeSet<AcqId>,
    /// The deadlocks reported that have every one of `acqs` ([`Reported`]), ascending.
    within: Vec<u32>,
}

/// The locks of a cycle as its search walks them: a cycle of one non-linear lock needs two of
/// its edges (two locks of the label).
fn cycle_path(cycle: &[Lock]) -> Vec<Lock> {
    if cycle.len() == 1 {
        vec![cycle[0], cycle[0]]
    } else {
        cycle.to_vec()
    }
}

/// The lock calls of each deadlock reported so far: a deadlock is reported once, at the level
/// closest to `main` that sees it.
///
/// Each lock call lists the deadlocks that have it, and each edge of a level the deadlocks that
/// have all its lock calls ([`EdgeClasses::within`]): a cycle is known to be reported when the
/// lists of its edges meet, without the union of its edges' lock calls being made and compared
/// with every deadlock (twelve modules of an interpreter whose operations call back holding
/// their module's lock: 133k cycles at each of a hundred levels, each compared with hundreds of
/// deadlocks, were half the phase).
#[derive(Default)]
struct Reported {
    /// Per deadlock (in the order of report), its lock calls.
    calls: Vec<BTreeSet<AcqId>>,
    /// Per lock call, the deadlocks that have it, ascending.
    having: FxHashMap<AcqId, Vec<u32>>,
}

impl Reported {
    fn len(&self) -> usize {
        self.calls.len()
    }

    /// Adds to `within` (the deadlocks that have every lock call of `calls`) those of them
    /// reported since the first `from`.
    fn extend_within(&self, from: usize, calls: &BTreeSet<AcqId>, within: &mut Vec<u32>) {
        for d in from..self.calls.len() {
            if calls.is_subset(&self.calls[d]) {
                within.push(d as u32);
            }
        }
    }

    /// The deadlocks that have every lock call of `calls`, ascending.
    fn having_all(&self, calls: &BTreeSet<AcqId>) -> Vec<u32> {
        let mut lists: Vec<&[u32]> = Vec::with_capacity(calls.len());
        for acq in calls {
            match self.having.get(acq) {
                Some(list) => lists.push(list),
                None => return Vec::new(),
            }
        }
        lists.sort_by_key(|list| list.len());
        let Some((first, rest)) = lists.split_first() else {
            return (0..self.calls.len() as u32).collect();
        };
        let mut common: Vec<u32> = first.to_vec();
        for list in rest {
            common.retain(|d| list.binary_search(d).is_ok());
        }
        common
    }

    /// Whether the lock calls `calls` are all those of one deadlock reported before.
    fn covers(&self, calls: &BTreeSet<AcqId>) -> bool {
        !self.having_all(calls).is_empty()
    }

    /// Records the lock calls of a deadlock reported.
    fn add(&mut self, calls: BTreeSet<AcqId>) {
        let d = self.calls.len() as u32;
        for &acq in &calls {
            self.having.entry(acq).or_default().push(d);
        }
        self.calls.push(calls);
    }
}

/// Whether ascending lists have an element in common (all of them, when there are none).
fn meet(lists: &[&[u32]]) -> bool {
    let Some(shortest) = lists.iter().min_by_key(|l| l.len()) else {
        return true;
    };
    shortest
        .iter()
        .any(|d| lists.iter().all(|l| l.binary_search(d).is_ok()))
}

/// The state of the search for the facts of one cycle.
struct Search<'s> {
    level: FnId,
    /// The cycle's locks (a non-linear lock's self-cycle twice).
    path: &'s [Lock],
    /// Per edge `path[i] → path[i + 1]`: one fact of each class of its facts.
    groups: &'s [Vec<usize>],
    chosen: Vec<usize>,
    /// Per edge: the facts of some complete choice that may deadlock.
    used: Vec<BTreeSet<usize>>,
    steps: usize,
}

/// The elementary cycles of a lock-order graph of at most [`MAX_LOCKS`] locks, each once,
/// starting from its least lock, in the order of their locks (a shorter cycle before the longer
/// ones it begins); self-loops are cycles of one lock. Only edges inside a strongly connected
/// component can be on a cycle, so the walk follows those only.
///
/// The walk looks for the cycles of one lock, then of two, and so on, in [`MAX_WALK`] steps in
/// all: where a graph has more cycles than that (sixteen locks each taken before every other by
/// one thread and after it by another: the walk from the first lock alone used the steps, and
/// 117 of the 120 deadlocks were not found), the short cycles, which are the likely deadlocks,
/// are all found, and the search says from how many locks on it stopped (`Some`).
fn elementary_cycles(edges: &Edges, stats: &Stats) -> (Vec<Vec<Lock>>, Option<usize>) {
    let mut graph: petgraph::graph::DiGraph<Lock, ()> = petgraph::graph::DiGraph::new();
    let mut node: BTreeMap<Lock, petgraph::graph::NodeIndex> = BTreeMap::new();
    for &(a, b) in edges.keys() {
        let x = *node.entry(a).or_insert_with(|| graph.add_node(a));
        let y = *node.entry(b).or_insert_with(|| graph.add_node(b));
        graph.add_edge(x, y, ());
    }
    let mut component: BTreeMap<Lock, usize> = BTreeMap::new();
    for (k, scc) in petgraph::algo::tarjan_scc(&graph).into_iter().enumerate() {
        component.extend(scc.into_iter().map(|x| (graph[x], k)));
    }
    let mut succs: BTreeMap<Lock, Vec<Lock>> = BTreeMap::new();
    for &(a, b) in edges.keys() {
        if component[&a] == component[&b] {
            succs.entry(a).or_default().push(b);
        }
    }
    let mut walk = Walk {
        succs: &succs,
        path: Vec::new(),
        out: Vec::new(),
        steps: 0,
        length: 0,
    };
    let mut cut = None;
    for length in 1..=MAX_LOCKS {
        walk.length = length;
        for &start in succs.keys() {
            walk.path = vec![start];
            walk.from(start);
        }
        if walk.steps > MAX_WALK {
            stats.count("deadlocks: lock-order walks cut short", 1);
            cut = Some(length);
            break;
        }
    }
    walk.out.sort();
    (walk.out, cut)
}

/// The most steps of the search for the cycles of one function's lock order.
pub const MAX_WALK: usize = 1_000_000;

/// The search for elementary cycles of one length.
struct Walk<'w> {
    succs: &'w BTreeMap<Lock, Vec<Lock>>,
    path: Vec<Lock>,
    out: Vec<Vec<Lock>>,
    /// The steps of every length so far.
    steps: usize,
    /// The number of locks of the cycles searched.
    length: usize,
}

impl Walk<'_> {
    /// Extends the path (from its least lock `start`) along locks greater than `start`,
    /// recording the cycles of `length` locks that come back to it.
    fn from(&mut self, start: Lock) {
        let last = *self.path.last().expect("a path has its start");
        let succs = self.succs;
        for &next in succs.get(&last).map(Vec::as_slice).unwrap_or(&[]) {
            self.steps += 1;
            if self.steps > MAX_WALK {
                return;
            }
            if next == start {
                if self.path.len() == self.length {
                    self.out.push(self.path.clone());
                }
            } else if next > start && !self.path.contains(&next) && self.path.len() < self.length {
                self.path.push(next);
                self.from(start);
                self.path.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edges(pairs: &[(u32, u32)]) -> Edges {
        pairs
            .iter()
            .map(|&(a, b)| ((Lock(a), Lock(b)), vec![0]))
            .collect()
    }

    fn cycles(pairs: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let (found, cut) = elementary_cycles(&edges(pairs), &Stats::off());
        assert_eq!(cut, None);
        found
            .into_iter()
            .map(|c| c.into_iter().map(|l| l.0).collect())
            .collect()
    }

    #[test]
    fn each_elementary_cycle_once_from_its_least_lock() {
        assert_eq!(cycles(&[(1, 2), (2, 3)]), Vec::<Vec<u32>>::new());
        assert_eq!(cycles(&[(1, 2), (2, 1)]), vec![vec![1, 2]]);
        assert_eq!(cycles(&[(3, 1), (1, 2), (2, 3)]), vec![vec![1, 2, 3]]);
        assert_eq!(cycles(&[(4, 4), (1, 2)]), vec![vec![4]]);
        // Two cycles through 1, and an edge out of them that is on none.
        assert_eq!(
            cycles(&[(1, 2), (2, 1), (2, 3), (3, 1), (3, 9)]),
            vec![vec![1, 2], vec![1, 2, 3]]
        );
    }

    /// Sixteen locks, each ordered both ways with every other: the walk runs out of steps, but
    /// only after every cycle of two locks is found, and says where it stopped.
    #[test]
    fn a_walk_cut_short_has_found_the_shortest_cycles() {
        let n = 16u32;
        let pairs: Vec<(u32, u32)> = (0..n)
            .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect();
        let (found, cut) = elementary_cycles(&edges(&pairs), &Stats::off());
        let length = cut.expect("more cycles than the walk's steps");
        assert!(length >= 3, "{length}");
        let pairs_found = found.iter().filter(|c| c.len() == 2).count();
        assert_eq!(pairs_found, (n * (n - 1) / 2) as usize);
        let mut sorted = found.clone();
        sorted.sort();
        assert_eq!(found, sorted);
    }

    fn acqs(v: &[u32]) -> BTreeSet<AcqId> {
        v.iter().map(|&a| AcqId(a)).collect()
    }

    proptest::proptest! {
        /// The index of reported deadlocks answers as comparing with each of them would, and
        /// the lists of a cycle's edges, made when the first `made` deadlocks were reported
        /// and extended as `cycles` extends them, meet exactly when one deadlock has all their
        /// lock calls.
        #[test]
        fn reported_deadlocks_cover_as_their_sets_do(
            deadlocks in proptest::collection::vec(proptest::collection::vec(0u32..12, 0..6), 0..8),
            edges in proptest::collection::vec(proptest::collection::vec(0u32..12, 0..4), 1..4),
            made in 0usize..8,
        ) {
            let made = made.min(deadlocks.len());
            let mut reported = Reported::default();
            for d in &deadlocks[..made] {
                reported.add(acqs(d));
            }
            let mut within: Vec<Vec<u32>> =
                edges.iter().map(|e| reported.having_all(&acqs(e))).collect();
            for d in &deadlocks[made..] {
                reported.add(acqs(d));
            }
            for (e, list) in edges.iter().zip(&mut within) {
                reported.extend_within(made, &acqs(e), list);
            }
            let sets: Vec<BTreeSet<AcqId>> = deadlocks.iter().map(|d| acqs(d)).collect();
            let union: BTreeSet<AcqId> = edges.iter().flat_map(|e| acqs(e)).collect();
            let naive = sets.iter().any(|r| union.is_subset(r));
            proptest::prop_assert_eq!(reported.covers(&union), naive);
            let lists: Vec<&[u32]> = within.iter().map(Vec::as_slice).collect();
            proptest::prop_assert_eq!(meet(&lists), naive);
        }
    }

    #[test]
    fn cycles_longer_than_the_limit_are_not_searched() {
        let n = MAX_LOCKS as u32 + 1;
        let ring: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        assert!(cycles(&ring).is_empty());
        let ring: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, (i + 1) % (n - 1))).collect();
        assert_eq!(cycles(&ring).len(), 1);
    }
}
