//! Which threads may be running at each point of a function: the ordering half of the paper's
//! sharing analysis (§3.2), made flow-sensitive and extended with joins.
//!
//! The paper decides sharing with continuation effects: at a fork, only what the parent does
//! *after* the fork can conflict with the child. Here the same question is asked per function:
//! for every event of a function `f`, which of `f`'s *forking points* — forks, and calls of
//! functions that may fork — may have started a thread that is still running. A thread started at
//! a point is running until a *must-join* of it: a [`Event::Join`] of its handle (the front end
//! matches `pthread_join` with `pthread_create` on the same thread-id variable, or a join loop
//! with a create loop), or, for threads started inside a call, the return of a callee that joins
//! them before returning ([`Mhp::joined_at_exit`]), or a join of the handle of the call, when the
//! callee is a create wrapper that starts them for its caller ([`Event::Call`]).
//!
//! This goes beyond the paper, whose main false alarms on real servers came from data read by
//! `main` after joining its workers. A join that may miss a thread (a join of one of two threads
//! created with one variable, a join loop shorter than the create loop) is never matched by the
//! front end, so it never hides a race.
//!
//! The analysis is a forward *may* analysis: a point is live after a fork on some path that does
//! not join it again; merging is union, so a join on only one branch does not kill.
//!
//! The same items also say when two threads that one event of a function starts — a fork run
//! again in a loop, a call that starts several — may overlap together with the threads they
//! start ([`Mhp::tree_overlap`]). When they cannot, an access under one of them meets an access
//! under another never, and the check orders accesses under the same one as that thread's own
//! function does ([`super::nest`]).

use fixedbitset::FixedBitSet;
use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use super::structure::Structure;
use super::{Event, EventBlock, FnId, ThreadHandle, ThreadProgram};
use crate::constraints::Site;
use crate::dataflow;
use crate::ids::{Idx, IndexVec};

/// A position in a function: the index of an event, counting through the blocks in order.
pub type Point = u32;

/// The facts of a function that starts no thread need no position: every access in it is by the
/// thread running it.
pub const NO_POINT: Point = u32::MAX;

/// The thread-starting items of one function and which are live before each of its events.
///
/// An *item* is a fork site together with the point of this function through which its threads
/// start: the fork itself, or a call of a function that starts them (one item per site the
/// callee may leave running). Items of one call point are separate so that a join of one
/// handle ends exactly the threads of that handle.
#[derive(Clone, Debug, Default)]
pub struct FnMhp {
    /// First point of each block.
    pub offsets: Vec<Point>,
    /// The items: (point, site).
    pub items: Vec<(Point, Site)>,
    /// The handle whose joins end each item here, if any.
    enders: Vec<Option<ThreadHandle>>,
    index_of: FxHashMap<(Point, Site), Vec<usize>>,
    /// The items started at each point.
    at_point: FxHashMap<Point, Vec<usize>>,
    /// For each point: the items (as indexes into `items`) whose threads may be running.
    live_before: Vec<FixedBitSet>,
    /// For a point that is a call starting threads, or a fork: the function it runs.
    callee: FxHashMap<Point, FnId>,
    /// For a point that is a fork: its own site.
    fork_site: FxHashMap<Point, Site>,
    /// For each point that starts no thread: the first such point with the same live items
    /// ([`Mhp::same_threads_point`]).
    same_live: Vec<Point>,
}

/// May-happen-in-parallel information for every function.
pub struct Mhp {
    /// Whether a function may start a thread (directly or through calls).
    pub may_fork: IndexVec<FnId, bool>,
    pub funcs: IndexVec<FnId, FnMhp>,
    /// The fork sites whose threads a function always joins before it returns.
    pub joined_at_exit: IndexVec<FnId, FxHashSet<Site>>,
    /// Whether the thread started at a fork site may run concurrently with itself within one
    /// run of the function that forks it (a fork in a loop that does not join it first).
    pub site_self_overlap: FxHashMap<Site, bool>,
    /// The fork sites of which one run of a function may have two threads running at once.
    pub overlapping: IndexVec<FnId, FxHashSet<Site>>,
    /// The fork sites each function may start threads at, directly or through calls (sorted).
    started: IndexVec<FnId, Vec<Site>>,
    /// The functions each fork site may start a thread running.
    site_callees: FxHashMap<Site, Vec<FnId>>,
    /// Per function: the pairs `(site, alive)` such that one run of it may itself start two
    /// threads of `site` (by its own thread, in it or its callees) while a thread of `alive`
    /// started under the first (it, or one it started, and so on) may still be running when the
    /// second starts ([`Mhp::tree_overlap`]).
    tree_overlapping: IndexVec<FnId, FxHashSet<(Site, Site)>>,
    /// The handle of each fork site whose threads all end at any join of it (a trusted global
    /// handle).
    pub unique_handle: FxHashMap<Site, ThreadHandle>,
    /// Sets of unique-thread handles, interned.
    pub handle_sets: HandleSets,
    /// Per function with joins: for each point, the unique threads joined on every path from the
    /// function's entry to it.
    joined_before: IndexVec<FnId, Option<JoinedPoints>>,
    /// The calls of pool join wrappers that join a handle: the wrapper's parameter handle and
    /// the handle it stands for at that call ([`ThreadProgram::param_joins`]).
    pub param_joins: FxHashMap<Site, (ThreadHandle, ThreadHandle)>,
}

/// The unique threads joined before each point of one function.
#[derive(Clone, Debug)]
struct JoinedPoints {
    /// First point of each block.
    offsets: Vec<u32>,
    before: Vec<HandleSetId>,
}

crate::define_id!(
    /// An interned set of thread handles.
    pub struct HandleSetId, "hs";
);
crate::define_id!(
    /// An interned set of fork sites.
    pub struct SiteSetId, "ss";
);

/// Interned sorted sets of `T`, named by ids `I`; id 0 is the empty set.
#[derive(Clone, Debug)]
pub struct SetTable<I: Idx, T> {
    sets: IndexVec<I, Vec<T>>,
    index: FxHashMap<Vec<T>, I>,
    /// The unions already made, by operands (facts ask the same pairs again and again).
    unions: FxHashMap<(u32, u32), I>,
}

impl<I: Idx, T: Copy + Ord + std::hash::Hash> Default for SetTable<I, T> {
    fn default() -> Self {
        let mut s = SetTable {
            sets: IndexVec::new(),
            index: FxHashMap::default(),
            unions: FxHashMap::default(),
        };
        s.intern(Vec::new());
        s
    }
}

impl<I: Idx, T: Copy + Ord + std::hash::Hash> SetTable<I, T> {
    pub fn empty(&self) -> I {
        I::new(0)
    }

    pub fn intern(&mut self, mut v: Vec<T>) -> I {
        v.sort();
        v.dedup();
        if let Some(&id) = self.index.get(&v) {
            return id;
        }
        let id = self.sets.push(v.clone());
        self.index.insert(v, id);
        id
    }

    pub fn get(&self, id: I) -> &[T] {
        &self.sets[id]
    }

    pub fn union(&mut self, a: I, b: I) -> I {
        if a == b || b == self.empty() {
            return a;
        }
        if a == self.empty() {
            return b;
        }
        let key = (a.index() as u32, b.index() as u32);
        if let Some(&out) = self.unions.get(&key) {
            return out;
        }
        let mut v = self.sets[a].clone();
        v.extend_from_slice(&self.sets[b]);
        let out = self.intern(v);
        self.unions.insert(key, out);
        out
    }
}

/// Sets of thread handles.
pub type HandleSets = SetTable<HandleSetId, ThreadHandle>;
/// Sets of fork sites.
pub type SiteSets = SetTable<SiteSetId, Site>;

/// What a function does to thread handles, as seen by its callers.
#[derive(Clone, Debug, Default)]
struct HandleSummary {
    /// The handles the function joins on every path to its return.
    joins_at_exit: FxHashSet<ThreadHandle>,
    /// The handles of the threads it may start.
    forks: FxHashSet<ThreadHandle>,
}

/// The join-related inputs of the per-function analysis.
struct Joins<'a> {
    on: bool,
    /// Handles that may end threads (global handles whose fork runs more than once may not).
    valid: FxHashSet<ThreadHandle>,
    /// Handles whose thread id is a global: their joins may be anywhere, and end the threads of
    /// any run that created them.
    global: &'a FxHashSet<ThreadHandle>,
    summary: &'a IndexVec<FnId, HandleSummary>,
    /// The handles of creates inside create wrappers ([`ThreadProgram::wrapped`]).
    wrapped: &'a FxHashSet<ThreadHandle>,
    /// [`ThreadProgram::wrapped_loops`].
    wrapped_loops: &'a FxHashSet<ThreadHandle>,
    /// Per function and block: whether the block lies on a cycle.
    cyclic: &'a IndexVec<FnId, Vec<bool>>,
    /// [`ThreadProgram::untaken_forks`]: the wrapper forks each call never takes.
    untaken: &'a FxHashSet<(Site, Site)>,
}

impl Joins<'_> {
    fn kills(&self, h: ThreadHandle) -> bool {
        self.on && self.valid.contains(&h)
    }
}

impl Mhp {
    /// Computes the analysis. With `joins` off, joins kill nothing.
    /// Handles in `untrusted` (their join's condition failed, see [`super::bounds`]) are never
    /// joined.
    pub fn new(
        p: &ThreadProgram,
        s: &Structure,
        joins: bool,
        untrusted: &FxHashSet<ThreadHandle>,
    ) -> Mhp {
        let may_fork = may_fork(p, s);
        let n = p.funcs.len();
        let (site_handle, handle_fn) = handles(p);
        let wrapped: FxHashSet<ThreadHandle> = p.wrapped.iter().copied().collect();
        let wrapped_loops: FxHashSet<ThreadHandle> = p.wrapped_loops.iter().copied().collect();
        let untaken: FxHashSet<(Site, Site)> = p.untaken_forks.iter().copied().collect();
        let started = started_sites(p);
        // A global handle's ids live in one global place: its threads are those of the latest
        // create only if creates never overlap. Code that threads run may run twice at once, so
        // a create there is never trusted; the rest is checked on the result below, dropping
        // handles until none overlaps.
        let thread_code = reachable_from_threads(p);
        let global_ids: FxHashSet<ThreadHandle> = p.global_handles.iter().copied().collect();
        // A registry's joins end every thread started into its list, however many overlap,
        // when every write and test of the list is made by the one thread that runs `main`.
        let mut global = global_ids.clone();
        for (handles, funcs) in &p.registries {
            if funcs.iter().all(|&f| !thread_code[f]) {
                global.extend(handles.iter().copied());
            }
        }
        // A create wrapper's call whose handle is a global place (`writer = launch(…)`) is not
        // a fork site the overlap check below sees: a recursive function could make a second
        // such call, overwriting the place, before the first one's join.
        let call_handles = call_handles(p);
        let mut valid: FxHashSet<ThreadHandle> = handle_fn
            .iter()
            .filter(|(h, f)| {
                let global_ok =
                    !(thread_code[**f] || (call_handles.contains(h) && s.recursive[**f]));
                (!global.contains(h) || global_ok) && !untrusted.contains(h)
            })
            .map(|(h, _)| *h)
            .collect();
        loop {
            let summaries = handle_summaries(p, s, &valid, joins);
            let ctx = Joins {
                on: joins,
                valid: valid.clone(),
                global: &global,
                summary: &summaries,
                wrapped: &wrapped,
                wrapped_loops: &wrapped_loops,
                cyclic: &s.cyclic,
                untaken: &untaken,
            };
            let mut site_self_overlap = FxHashMap::default();
            let mut overlapping: IndexVec<FnId, FxHashSet<Site>> =
                IndexVec::from_elem_n(FxHashSet::default(), n);
            let (funcs, joined_at_exit) = analyse_all(
                p,
                s,
                &may_fork,
                &site_handle,
                &started,
                &ctx,
                &mut site_self_overlap,
            );
            // Forks are not call edges, so a thread function may come after its forker in the
            // component order: iterate (the sets only grow).
            loop {
                let mut changed = false;
                for f in p.funcs.indices() {
                    if !may_fork[f] {
                        continue;
                    }
                    let o = overlapping_sites(
                        &funcs[f],
                        &site_self_overlap,
                        &overlapping,
                        &started,
                        s.recursive[f],
                        f,
                    );
                    if o.len() != overlapping[f].len() {
                        overlapping[f] = o;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            if joins {
                let bad = overlapping_creates(&funcs, &site_handle, &global_ids, &valid);
                if !bad.is_empty() {
                    valid.retain(|h| !bad.contains(h));
                    continue;
                }
            }
            // Global handles whose joins end all their threads wherever they happen.
            let mut trusted: FxHashSet<ThreadHandle> = valid
                .iter()
                .copied()
                .filter(|h| global.contains(h))
                .collect();
            let unique_handle: FxHashMap<Site, ThreadHandle> = site_handle
                .iter()
                .filter(|(_, h)| trusted.contains(h))
                .map(|(s, h)| (*s, *h))
                .collect();
            // A pool join wrapper's parameter handle is joined on every path past its join
            // loop; it ends threads only through a call that maps it to a handle.
            trusted.extend(p.param_joins.iter().map(|&(_, param, _)| param));
            let mut handle_sets = HandleSets::default();
            let mut joined_before: IndexVec<FnId, Option<JoinedPoints>> =
                IndexVec::from_elem_n(None, n);
            if joins && !trusted.is_empty() {
                for f in p.funcs.indices() {
                    joined_before[f] = joined_points(p, f, &trusted, &summaries, &mut handle_sets);
                }
            }
            let site_callees = site_callees(p);
            let tree_overlapping = tree_overlapping_sites(p, s, &funcs, &started, &site_callees);
            return Mhp {
                may_fork,
                funcs,
                joined_at_exit,
                site_self_overlap,
                overlapping,
                started,
                site_callees,
                tree_overlapping,
                unique_handle,
                handle_sets,
                joined_before,
                param_joins: p
                    .param_joins
                    .iter()
                    .map(|&(site, param, joined)| (site, (param, joined)))
                    .collect(),
            };
        }
    }

    /// The unique threads joined on every path from `f`'s entry to event `index` of `block`.
    pub fn joined_at(&self, f: FnId, block: u32, index: u32) -> HandleSetId {
        let Some(points) = &self.joined_before[f] else {
            return HandleSetId(0);
        };
        let Some(&offset) = points.offsets.get(block as usize) else {
            return HandleSetId(0);
        };
        points
            .before
            .get((offset + index) as usize)
            .copied()
            .unwrap_or(HandleSetId(0))
    }

    /// Whether a thread of a fork site `relevant` accepts, started by this run of `f`, may be
    /// running at point `at`, other than those all of whose threads a join of one of `ended`
    /// ends wherever it happens.
    pub fn runs_beside(
        &self,
        f: FnId,
        at: Point,
        ended: &[ThreadHandle],
        relevant: impl Fn(Site) -> bool,
    ) -> bool {
        if at == NO_POINT || !self.may_fork[f] {
            return false;
        }
        let m = &self.funcs[f];
        let Some(live) = m.live_before.get(at as usize) else {
            return self.started[f].iter().any(|&s| relevant(s));
        };
        live.ones().any(|i| {
            let site = m.items[i].1;
            relevant(site)
                && !m.enders[i].is_some_and(|h| {
                    ended.contains(&h) && self.unique_handle.get(&site) == Some(&h)
                })
        })
    }

    /// Whether the thread started at `site` is one that `joined` (a set of `sets`) says has been
    /// joined.
    pub fn joined_thread(&self, sets: &HandleSets, site: Site, joined: HandleSetId) -> bool {
        self.unique_handle
            .get(&site)
            .is_some_and(|h| sets.get(joined).contains(h))
    }

    /// Whether every thread of `site` started at point `k` of `f` is ended by a join of one of
    /// the handles in `joined` (a must-set: joined on every path before the access): the
    /// items' own handle, whose join ends them all (a pool's handle at its join wrapper's
    /// call, [`ThreadProgram::param_joins`]).
    pub fn ended_by(
        &self,
        sets: &HandleSets,
        f: FnId,
        site: Site,
        k: Point,
        joined: HandleSetId,
    ) -> bool {
        if k == NO_POINT || joined == HandleSetId(0) {
            return false;
        }
        let m = &self.funcs[f];
        let Some(items) = m.index_of.get(&(k, site)) else {
            return false;
        };
        let joined = sets.get(joined);
        items
            .iter()
            .all(|&i| m.enders[i].is_some_and(|h| joined.contains(&h)))
    }

    /// The point of event `index` of block `block` of `f`, or [`NO_POINT`] when `f` never forks.
    pub fn point(&self, f: FnId, block: u32, index: u32) -> Point {
        if !self.may_fork[f] {
            return NO_POINT;
        }
        self.funcs[f]
            .offsets
            .get(block as usize)
            .map_or(NO_POINT, |o| o + index)
    }

    /// Whether the threads of fork site `site`, started at point `k` of `f`, may still be
    /// running at point `at` of `f`. When `at` is `k` itself (an access inside the call that
    /// starts the threads), `inside` says whether this site's thread, started during that call,
    /// may be running at the access; if not, only a thread left by an earlier run of `k` can be.
    pub fn live_at(&self, f: FnId, site: Site, k: Point, at: Point, inside: bool) -> bool {
        if k == NO_POINT || at == NO_POINT {
            return true;
        }
        if k == at && inside {
            return true;
        }
        let m = &self.funcs[f];
        // No item: the call joins the site's threads before it returns.
        let Some(items) = m.index_of.get(&(k, site)) else {
            return k == at && inside;
        };
        let before = m.live_before.get(at as usize);
        items.iter().any(|&i| before.is_none_or(|b| b.contains(i)))
    }

    /// A point of `f` at which the threads of this run of `f` that may be running are the same as
    /// at `at`, the same one for every such `at`: for an access by `f`'s thread at a point that
    /// starts no thread, only those threads tell what it may meet ([`Mhp::live_at`] of any other
    /// point), so accesses at two such points are interchangeable. A point that starts threads
    /// is itself.
    pub fn same_threads_point(&self, f: FnId, at: Point) -> Point {
        if at == NO_POINT || !self.may_fork[f] {
            return at;
        }
        self.funcs[f]
            .same_live
            .get(at as usize)
            .copied()
            .unwrap_or(at)
    }

    /// The fork sites whose threads, started in this run of `f`, may be running at point `at`.
    pub fn live_sites(&self, f: FnId, at: Point) -> Vec<Site> {
        if at == NO_POINT || !self.may_fork[f] {
            return Vec::new();
        }
        let m = &self.funcs[f];
        let Some(live) = m.live_before.get(at as usize) else {
            return self.started[f].clone();
        };
        live.ones().map(|i| m.items[i].1).collect()
    }

    /// Whether an access under a thread of fork site `site` may meet an access under *another*
    /// thread of `site`, both threads started through the event at point `k` of one run of `f` by
    /// the thread running `f` (the fork itself, or a call during which that thread forks them),
    /// the two accesses being made by threads of the sites `threads`. When they cannot, two such
    /// accesses are either under one and the same thread of `site`, which orders them by what it
    /// does (see `check`), or never at the same time.
    ///
    /// The thread of `site` that starts second is started while the first one's subtree runs.
    /// Its access, made after that start, can meet the other access only if the thread making
    /// that one, or a thread between it and the first thread of `site` (of which it descends),
    /// is still running then: a thread of a site [`Mhp::on_the_way`] from `site` to one of
    /// `threads`. Such a thread left by an earlier run of `k` is one of `k`'s items live before
    /// `k`; two started by one run of a call are the callee's own [`Mhp::tree_overlapping`].
    pub fn tree_overlap(&self, f: FnId, site: Site, k: Point, threads: [Site; 2]) -> bool {
        if k == NO_POINT || !self.may_fork[f] {
            return true;
        }
        let m = &self.funcs[f];
        let Some(before) = m.live_before.get(k as usize) else {
            return true;
        };
        let between = |alive: Site| threads.iter().any(|&t| self.on_the_way(site, alive, t));
        let again = m
            .at_point
            .get(&k)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .any(|&i| before.contains(i) && between(m.items[i].1));
        if again {
            return true;
        }
        match (m.fork_site.get(&k), m.callee.get(&k)) {
            // One run of a fork starts one thread.
            (Some(_), _) => false,
            (None, Some(&g)) => self.tree_overlapping[g]
                .iter()
                .any(|&(s, alive)| s == site && between(alive)),
            (None, None) => true,
        }
    }

    /// Whether a thread of `other` started under a thread of `site` may be the thread of
    /// `target`, or one that a thread of `target` descends from: `other` is `site` or a site
    /// its threads may start threads at, and is `target` or may lead to it.
    pub fn on_the_way(&self, site: Site, other: Site, target: Site) -> bool {
        let (started, callees) = (&self.started, &self.site_callees);
        subtree_contains(started, callees, site, other)
            && subtree_contains(started, callees, other, target)
    }

    /// Whether a run of `f` may start a thread at `site`, in it, its callees or the threads they
    /// start.
    pub fn may_start(&self, f: FnId, site: Site) -> bool {
        self.started[f].binary_search(&site).is_ok()
    }

    /// Whether a thread of `site` may start, itself or through the threads it starts, another
    /// thread of `site`.
    fn restarts(&self, site: Site) -> bool {
        self.site_callees.get(&site).is_some_and(|gs| {
            gs.iter()
                .any(|&g| self.started[g].binary_search(&site).is_ok())
        })
    }

    /// Whether the threads of `site` started at point `k` of `f` may overlap each other: a later
    /// run of `k` while an earlier thread still runs, or several threads started by one call.
    pub fn self_overlap(&self, f: FnId, site: Site, k: Point) -> bool {
        if k == NO_POINT {
            return true;
        }
        let m = &self.funcs[f];
        // Whether a thread of `s` started by an earlier run of `k` may still run when `k` runs.
        let again = |s: Site| match m.index_of.get(&(k, s)) {
            Some(items) => {
                let before = m.live_before.get(k as usize);
                items.iter().any(|&i| before.is_none_or(|b| b.contains(i)))
            }
            None => false,
        };
        let own = m.fork_site.get(&k).copied();
        // A fork's own thread: a previous run of the same fork can overlap it, and so can a
        // thread of the same site that it starts itself, directly or further down (a thread
        // function that starts, through calls or threads of its own, its like again). The
        // facts of the two are the same facts here, because the nests of a fork on such a
        // cycle are not kept (see `facts`).
        if own == Some(site) {
            return again(site) || self.restarts(site);
        }
        match m.callee.get(&k) {
            None => again(site),
            // A thread started inside a call or by a forked thread: one run may start several,
            // and two overlapping runs of a forked thread each start their own.
            Some(&g) => {
                self.overlapping[g].contains(&site) || again(site) || own.is_some_and(again)
            }
        }
    }
}

/// The handle summaries of every function, callees first. Within a recursive component the
/// callees' summaries may still be empty when used: an empty `joins_at_exit` joins nothing, which
/// is sound, and `forks`/`uniform` are completed by iterating the component.
fn handle_summaries(
    p: &ThreadProgram,
    s: &Structure,
    valid: &FxHashSet<ThreadHandle>,
    joins: bool,
) -> IndexVec<FnId, HandleSummary> {
    let n = p.funcs.len();
    let mut out: IndexVec<FnId, HandleSummary> = IndexVec::from_elem_n(HandleSummary::default(), n);
    for scc in &s.sccs {
        // What each function may fork, to a fixpoint over the component.
        loop {
            let mut changed = false;
            for &f in scc {
                let mut forks = FxHashSet::default();
                for block in &p.funcs[f].blocks {
                    for e in &block.events {
                        match *e {
                            Event::Fork {
                                handle: Some(h), ..
                            } => {
                                forks.insert(h);
                            }
                            Event::Call { callee, handle, .. } => {
                                forks.extend(out[callee].forks.iter().copied());
                                forks.extend(handle);
                            }
                            _ => {}
                        }
                    }
                }
                if forks.len() != out[f].forks.len() {
                    out[f].forks = forks;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if !joins {
            continue;
        }
        for &f in scc {
            out[f].joins_at_exit = joined_on_every_path(p, f, valid, &out);
        }
    }
    out
}

/// One event's effect on the handles of `keep` joined on every path so far: a join of one of them
/// adds it, starting a thread of a handle again removes it, and a call removes the handles its
/// callee may fork, then adds those (of `keep`) it joins before returning.
fn join_step(
    e: &Event,
    keep: &FxHashSet<ThreadHandle>,
    summary: &IndexVec<FnId, HandleSummary>,
    joined: &mut BTreeSet<ThreadHandle>,
) {
    match *e {
        Event::Join(h) if keep.contains(&h) => {
            joined.insert(h);
        }
        Event::Fork {
            handle: Some(h), ..
        } => {
            joined.remove(&h);
        }
        Event::Call { callee, handle, .. } => {
            for h in summary[callee].forks.iter().chain(&handle) {
                joined.remove(h);
            }
            let joins = &summary[callee].joins_at_exit;
            joined.extend(joins.iter().filter(|h| keep.contains(h)).copied());
        }
        _ => {}
    }
}

/// [`join_step`] over a block's `events`, calling `before` with the handles joined before each.
/// The targets of one call through a pointer ([`ThreadProgram::alternative_of`]) each start
/// from the handles joined before the first, and only one of them runs: after them a handle is
/// joined only if every target leaves it joined.
fn join_steps(
    p: &ThreadProgram,
    events: &[Event],
    keep: &FxHashSet<ThreadHandle>,
    summary: &IndexVec<FnId, HandleSummary>,
    joined: &mut BTreeSet<ThreadHandle>,
    mut before: impl FnMut(&BTreeSet<ThreadHandle>),
) {
    let alternative = |e: &Event| match *e {
        Event::Call { site, .. } => p.alternative_of(site),
        _ => None,
    };
    let mut i = 0;
    while i < events.len() {
        let Some(call) = alternative(&events[i]) else {
            before(joined);
            join_step(&events[i], keep, summary, joined);
            i += 1;
            continue;
        };
        let start = joined.clone();
        let mut after: Option<BTreeSet<ThreadHandle>> = None;
        while i < events.len() && alternative(&events[i]) == Some(call) {
            before(&start);
            let mut one = start.clone();
            join_step(&events[i], keep, summary, &mut one);
            after = Some(match after {
                None => one,
                Some(a) => a.intersection(&one).copied().collect(),
            });
            i += 1;
        }
        *joined = after.unwrap_or(start);
    }
}

/// The handles of `keep` joined on every path from the entry to the start of each block: a
/// forward *must* analysis of [`join_steps`] (`None` where no path leads).
fn joined_entries(
    p: &ThreadProgram,
    blocks: &[EventBlock],
    keep: &FxHashSet<ThreadHandle>,
    summary: &IndexVec<FnId, HandleSummary>,
) -> Vec<Option<BTreeSet<ThreadHandle>>> {
    dataflow::forward(
        &mut (),
        blocks.len(),
        |b| &blocks[b].succs,
        BTreeSet::new(),
        |_, b, mut joined| {
            join_steps(p, &blocks[b].events, keep, summary, &mut joined, |_| {});
            Some(joined)
        },
        |_, into, incoming| dataflow::intersect(into, incoming),
    )
}

/// The handles a function joins on every path from its entry to a return ([`joined_entries`] of
/// the valid handles, at the returns). A callee's `joins_at_exit` holds only valid handles.
fn joined_on_every_path(
    p: &ThreadProgram,
    f: FnId,
    valid: &FxHashSet<ThreadHandle>,
    summary: &IndexVec<FnId, HandleSummary>,
) -> FxHashSet<ThreadHandle> {
    let blocks = &p.funcs[f].blocks;
    let entry = joined_entries(p, blocks, valid, summary);
    let mut at_return: Option<BTreeSet<ThreadHandle>> = None;
    for (block, input) in blocks.iter().zip(entry) {
        let Some(mut joined) = input.filter(|_| block.returns) else {
            continue;
        };
        join_steps(p, &block.events, valid, summary, &mut joined, |_| {});
        at_return = Some(match at_return {
            None => joined,
            Some(r) => r.intersection(&joined).copied().collect(),
        });
    }
    at_return.unwrap_or_default().into_iter().collect()
}

/// The unique threads joined on every path to each point of `f` ([`joined_entries`] of the
/// `unique` handles, recorded per event), or `None` when the function joins none.
fn joined_points(
    p: &ThreadProgram,
    f: FnId,
    unique: &FxHashSet<ThreadHandle>,
    summary: &IndexVec<FnId, HandleSummary>,
    sets: &mut HandleSets,
) -> Option<JoinedPoints> {
    let blocks = &p.funcs[f].blocks;
    let joins_any = blocks.iter().any(|b| {
        b.events.iter().any(|e| match *e {
            Event::Join(h) => unique.contains(&h),
            Event::Call { callee, .. } => summary[callee]
                .joins_at_exit
                .iter()
                .any(|h| unique.contains(h)),
            _ => false,
        })
    });
    if !joins_any || blocks.is_empty() {
        return None;
    }
    let entry = joined_entries(p, blocks, unique, summary);
    let mut offsets = Vec::with_capacity(blocks.len());
    let mut before = Vec::new();
    for (block, input) in blocks.iter().zip(entry) {
        offsets.push(before.len() as u32);
        let mut joined = input.unwrap_or_default();
        join_steps(p, &block.events, unique, summary, &mut joined, |j| {
            before.push(sets.intern(j.iter().copied().collect()));
        });
    }
    Some(JoinedPoints { offsets, before })
}

/// The fork sites of which one run of `f` may have two threads running at once: a fork that
/// runs again while its earlier thread runs, a call that does so, a callee in which it happens,
/// two calls starting the same site with the first one's thread still running, or any site of a
/// recursive function.
fn overlapping_sites(
    m: &FnMhp,
    site_self_overlap: &FxHashMap<Site, bool>,
    overlapping: &IndexVec<FnId, FxHashSet<Site>>,
    started: &IndexVec<FnId, Vec<Site>>,
    recursive: bool,
    f: FnId,
) -> FxHashSet<Site> {
    if recursive {
        return started[f].iter().copied().collect();
    }
    let mut out = FxHashSet::default();
    for g in m.callee.values() {
        out.extend(overlapping[*g].iter().copied());
    }
    // The items of each site: a point asks whether one of them is live, not every live item
    // whether it is of the site (`main` of a program with thousands of forks has thousands of
    // items live at once).
    let mut items_of: FxHashMap<Site, Vec<usize>> = FxHashMap::default();
    for (j, &(_, site)) in m.items.iter().enumerate() {
        items_of.entry(site).or_default().push(j);
    }
    for &(k, site) in &m.items {
        // A fork whose thread may start, itself or further down, another thread of the same
        // site: the two run at once, each starting its own threads.
        let restarts = m
            .callee
            .get(&k)
            .is_some_and(|&t| started[t].binary_search(&site).is_ok());
        if m.fork_site.get(&k) == Some(&site)
            && (restarts || site_self_overlap.get(&site).copied().unwrap_or(true))
        {
            out.insert(site);
            // Two runs of this thread at once each start their own threads.
            if let Some(&t) = m.callee.get(&k) {
                out.extend(started[t].iter().copied());
            }
        }
        let Some(live) = m.live_before.get(k as usize) else {
            continue;
        };
        if items_of[&site].iter().any(|&j| live.contains(j)) {
            out.insert(site);
        }
    }
    out
}

/// The handle of each fork site that has one, and the function whose forks or calls name the
/// threads of each handle (a create wrapper's call names its threads by the call's handle).
fn handles(p: &ThreadProgram) -> (FxHashMap<Site, ThreadHandle>, FxHashMap<ThreadHandle, FnId>) {
    let mut site_handle: FxHashMap<Site, ThreadHandle> = FxHashMap::default();
    let mut handle_fn: FxHashMap<ThreadHandle, FnId> = FxHashMap::default();
    for (f, body) in p.funcs.iter_enumerated() {
        for block in &body.blocks {
            for e in &block.events {
                match *e {
                    Event::Fork {
                        site,
                        handle: Some(h),
                        ..
                    } => {
                        handle_fn.insert(h, f);
                        site_handle.insert(site, h);
                    }
                    Event::Call {
                        handle: Some(h), ..
                    } => {
                        handle_fn.insert(h, f);
                    }
                    _ => {}
                }
            }
        }
    }
    (site_handle, handle_fn)
}

/// The live-thread analysis of every function that may fork, callees and thread functions
/// first, with each function's exit summary (the fork sites it joins before returning).
fn analyse_all(
    p: &ThreadProgram,
    s: &Structure,
    may_fork: &IndexVec<FnId, bool>,
    site_handle: &FxHashMap<Site, ThreadHandle>,
    started: &IndexVec<FnId, Vec<Site>>,
    ctx: &Joins<'_>,
    site_self_overlap: &mut FxHashMap<Site, bool>,
) -> (IndexVec<FnId, FnMhp>, IndexVec<FnId, FxHashSet<Site>>) {
    let n = p.funcs.len();
    let mut funcs: IndexVec<FnId, FnMhp> = IndexVec::from_elem_n(FnMhp::default(), n);
    let mut joined_at_exit: IndexVec<FnId, FxHashSet<Site>> =
        IndexVec::from_elem_n(FxHashSet::default(), n);
    // Callees and thread functions before the functions calling or starting them, so that
    // each call and fork sees its target's exit summary. Within a cycle (a tree of
    // threads each starting and joining its children, a recursive call), the summaries
    // are the greatest fixpoint: every function of the cycle is first taken to join all
    // it starts, and the cycle is analysed again until no summary shrinks. That is
    // sound because a run that returns has seen each of its joins return, and the
    // threads or calls they waited for return in turn: by induction on a finite run,
    // the deepest of them makes no call or fork of the cycle, so its summary holds
    // without the assumption, and each level above holds given the one below.
    for scc in &s.thread_sccs {
        let cyclic = cycle_through_forks_or_calls(p, scc);
        if cyclic {
            for &f in scc {
                joined_at_exit[f] = started[f].iter().copied().collect();
            }
        }
        loop {
            let mut shrunk = false;
            for &f in scc {
                if !may_fork[f] {
                    continue;
                }
                let (m, jae) = analyse(
                    p,
                    f,
                    site_handle,
                    &joined_at_exit,
                    started,
                    ctx,
                    site_self_overlap,
                );
                funcs[f] = m;
                shrunk |= jae != joined_at_exit[f];
                joined_at_exit[f] = jae;
            }
            if !cyclic || !shrunk {
                break;
            }
        }
    }
    (funcs, joined_at_exit)
}

/// Whether a component of the call-and-fork graph is a cycle: more than one function, or one
/// that calls or starts itself.
fn cycle_through_forks_or_calls(p: &ThreadProgram, scc: &[FnId]) -> bool {
    match scc {
        [f] => p.funcs[*f]
            .blocks
            .iter()
            .flat_map(|b| &b.events)
            .any(|e| matches!(*e, Event::Fork { callee, .. } | Event::Call { callee, .. } if callee == *f)),
        _ => true,
    }
}

/// The handles of calls of create wrappers ([`Event::Call`] with a handle).
fn call_handles(p: &ThreadProgram) -> FxHashSet<ThreadHandle> {
    p.funcs
        .iter()
        .flat_map(|body| body.blocks.iter().flat_map(|b| &b.events))
        .filter_map(|e| match *e {
            Event::Call {
                handle: Some(h), ..
            } => Some(h),
            _ => None,
        })
        .collect()
}

/// The functions each fork site may start a thread running (several for a fork through a
/// function pointer with several targets).
fn site_callees(p: &ThreadProgram) -> FxHashMap<Site, Vec<FnId>> {
    let mut out: FxHashMap<Site, Vec<FnId>> = FxHashMap::default();
    for body in p.funcs.iter() {
        for block in &body.blocks {
            for e in &block.events {
                if let Event::Fork { site, callee, .. } = *e {
                    out.entry(site).or_default().push(callee);
                }
            }
        }
    }
    for v in out.values_mut() {
        v.sort();
        v.dedup();
    }
    out
}

/// Whether `other` is `site` or a site that a thread of `site` may start threads at.
fn subtree_contains(
    started: &IndexVec<FnId, Vec<Site>>,
    site_callees: &FxHashMap<Site, Vec<FnId>>,
    site: Site,
    other: Site,
) -> bool {
    site == other
        || site_callees
            .get(&site)
            .is_some_and(|gs| gs.iter().any(|&g| started[g].binary_search(&other).is_ok()))
}

/// The fork sites each function's own thread may start threads at, in it or in its callees
/// (not in the threads it starts), sorted.
fn own_started_sites(p: &ThreadProgram, s: &Structure) -> IndexVec<FnId, Vec<Site>> {
    let mut out: IndexVec<FnId, Vec<Site>> = IndexVec::from_elem_n(Vec::new(), p.funcs.len());
    for scc in &s.sccs {
        loop {
            let mut changed = false;
            for &f in scc {
                let v = sites_of(p, f, &out, false);
                if v != out[f] {
                    out[f] = v;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    out
}

/// [`Mhp::tree_overlapping`]: for each function, the pairs `(s, alive)` such that one run of it
/// may itself start two threads of `s` while a thread of `alive`, started under the first, may
/// still be running. Callees come first (the call graph's components in reverse topological
/// order). In a recursive function, every site `s` its thread starts counts, with every site
/// under it (the runs nested in one run are not told apart). Otherwise: the pairs of a callee's
/// run, and each site `s` started through two points `k₁` and `k₂` (the same point again in a
/// loop) with an item `(k₁, alive)` live before `k₂` and `alive` under `s` — the items of `k₁`
/// cover every thread started through `k₁`.
fn tree_overlapping_sites(
    p: &ThreadProgram,
    s: &Structure,
    funcs: &IndexVec<FnId, FnMhp>,
    started: &IndexVec<FnId, Vec<Site>>,
    site_callees: &FxHashMap<Site, Vec<FnId>>,
) -> IndexVec<FnId, FxHashSet<(Site, Site)>> {
    let own = own_started_sites(p, s);
    let mut out: IndexVec<FnId, FxHashSet<(Site, Site)>> =
        IndexVec::from_elem_n(FxHashSet::default(), p.funcs.len());
    let under = |site: Site| -> Vec<Site> {
        let mut v = vec![site];
        for &g in site_callees.get(&site).map(Vec::as_slice).unwrap_or(&[]) {
            v.extend(started[g].iter().copied());
        }
        v
    };
    for scc in &s.sccs {
        for &f in scc {
            if s.recursive[f] {
                out[f] = own[f]
                    .iter()
                    .flat_map(|&site| under(site).into_iter().map(move |a| (site, a)))
                    .collect();
                continue;
            }
            let m = &funcs[f];
            // The sites the thread running `f` starts threads at through point `k`.
            let own_sites = |k: Point| -> &[Site] {
                match (m.fork_site.get(&k), m.callee.get(&k)) {
                    (Some(site), _) => std::slice::from_ref(site),
                    (None, Some(&g)) => &own[g],
                    (None, None) => &[],
                }
            };
            // The points `k₁` through which each site is started, so that a point `k₂` meets
            // only the items of points sharing one of its sites, not every item live before it
            // (a `main` calling many starters would otherwise compare each with all the others).
            let mut points_of: FxHashMap<Site, Vec<Point>> = FxHashMap::default();
            for &k in m.callee.keys() {
                for &site in own_sites(k) {
                    points_of.entry(site).or_default().push(k);
                }
            }
            let mut set = FxHashSet::default();
            for (&k2, &g) in &m.callee {
                if !m.fork_site.contains_key(&k2) {
                    set.extend(out[g].iter().copied());
                }
                let Some(before) = m.live_before.get(k2 as usize) else {
                    for &site in own_sites(k2) {
                        set.extend(under(site).into_iter().map(|a| (site, a)));
                    }
                    continue;
                };
                for &site in own_sites(k2) {
                    for k1 in points_of.get(&site).into_iter().flatten() {
                        for &j in m.at_point.get(k1).into_iter().flatten() {
                            let alive = m.items[j].1;
                            if before.contains(j)
                                && subtree_contains(started, site_callees, site, alive)
                            {
                                set.insert((site, alive));
                            }
                        }
                    }
                }
            }
            out[f] = set;
        }
    }
    out
}

/// The functions that threads other than the main one may run: fork targets and everything
/// they call.
pub(super) fn reachable_from_threads(p: &ThreadProgram) -> IndexVec<FnId, bool> {
    let mut seen: IndexVec<FnId, bool> = IndexVec::from_elem_n(false, p.funcs.len());
    let mut stack: Vec<FnId> = Vec::new();
    for body in p.funcs.iter() {
        for block in &body.blocks {
            for e in &block.events {
                if let Event::Fork { callee, .. } = *e {
                    stack.push(callee);
                }
            }
        }
    }
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut seen[f], true) {
            continue;
        }
        for block in &p.funcs[f].blocks {
            for e in &block.events {
                if let Event::Call { callee, .. } | Event::Fork { callee, .. } = *e {
                    stack.push(callee);
                }
            }
        }
    }
    seen
}

/// The global handles some create of which may run while threads of an earlier create of the
/// same handle are still running (their ids would be overwritten before being joined): a
/// forking point creating threads of the handle while another point that creates them, or the
/// same call again, may still have threads running. A fork repeated by its own create loop is
/// one create.
fn overlapping_creates(
    funcs: &IndexVec<FnId, FnMhp>,
    site_handle: &FxHashMap<Site, ThreadHandle>,
    global: &FxHashSet<ThreadHandle>,
    valid: &FxHashSet<ThreadHandle>,
) -> FxHashSet<ThreadHandle> {
    let mut bad = FxHashSet::default();
    for m in funcs.iter() {
        let handle_of = |i: usize| -> Option<ThreadHandle> {
            site_handle
                .get(&m.items[i].1)
                .copied()
                .filter(|h| global.contains(h) && valid.contains(h))
        };
        for (i, &(k, _)) in m.items.iter().enumerate() {
            let Some(h) = handle_of(i) else { continue };
            let Some(live) = m.live_before.get(k as usize) else {
                continue;
            };
            for j in live.ones() {
                if handle_of(j) != Some(h) {
                    continue;
                }
                // The same fork again is its own create loop; the same call again is a second
                // create while the first one's threads may run.
                if m.items[j].0 == k && m.fork_site.get(&k) == Some(&m.items[j].1) {
                    continue;
                }
                bad.insert(h);
            }
        }
    }
    bad
}

/// The fork sites of `f`'s own forks and of its callees' (`known` for each callee), sorted; with
/// `through_forks`, also those of the threads it starts (`known` for each thread function).
fn sites_of(
    p: &ThreadProgram,
    f: FnId,
    known: &IndexVec<FnId, Vec<Site>>,
    through_forks: bool,
) -> Vec<Site> {
    let mut v: Vec<Site> = Vec::new();
    for block in &p.funcs[f].blocks {
        for e in &block.events {
            match *e {
                Event::Fork { site, callee, .. } => {
                    v.push(site);
                    if through_forks {
                        v.extend(known[callee].iter().copied());
                    }
                }
                Event::Call { callee, .. } => v.extend(known[callee].iter().copied()),
                _ => {}
            }
        }
    }
    v.sort();
    v.dedup();
    v
}

/// The fork sites each function may start threads at, directly or through its callees.
fn started_sites(p: &ThreadProgram) -> IndexVec<FnId, Vec<Site>> {
    let mut out: IndexVec<FnId, Vec<Site>> = IndexVec::from_elem_n(Vec::new(), p.funcs.len());
    // Forks are not call edges, so the call graph's component order does not cover them: iterate
    // over all functions until nothing grows.
    loop {
        let mut changed = false;
        for f in p.funcs.indices() {
            let v = sites_of(p, f, &out, true);
            if v != out[f] {
                out[f] = v;
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Whether each function may start a thread, directly or through its callees.
fn may_fork(p: &ThreadProgram, s: &Structure) -> IndexVec<FnId, bool> {
    let mut may: IndexVec<FnId, bool> = p
        .funcs
        .iter()
        .map(|b| {
            b.blocks
                .iter()
                .any(|bl| bl.events.iter().any(|e| matches!(e, Event::Fork { .. })))
        })
        .collect();
    for scc in &s.sccs {
        loop {
            let mut changed = false;
            for &f in scc {
                if may[f] {
                    continue;
                }
                let calls_forker = p.funcs[f].blocks.iter().any(|bl| {
                    bl.events
                        .iter()
                        .any(|e| matches!(e, Event::Call { callee, .. } if may[*callee]))
                });
                if calls_forker {
                    may[f] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    may
}

/// The thread-starting items of one function, numbered in event order.
struct Items {
    m: FnMhp,
    /// The items of forks' own threads.
    direct: Vec<usize>,
    /// The items each valid handle's joins end.
    handles: FxHashMap<ThreadHandle, Vec<usize>>,
    /// The number of points (events) of the function.
    total: usize,
}

/// The items of `f`: at a fork, its own thread and every thread that thread may start; at a
/// call, the threads the callee may leave running. A join of a handle ends the threads of this
/// run's forks of that handle, and with them the threads those children joined before they
/// returned; a thread started by another run of a function — a callee, or a child — is ended
/// only by the join of a global handle, whose creates never overlap (a local handle joined here
/// may also name the threads a recursive run of this very function started, which this join
/// does not end).
fn items(
    p: &ThreadProgram,
    f: FnId,
    site_handle: &FxHashMap<Site, ThreadHandle>,
    joined_at_exit: &IndexVec<FnId, FxHashSet<Site>>,
    started: &IndexVec<FnId, Vec<Site>>,
    joins: &Joins<'_>,
) -> Items {
    let mut m = FnMhp::default();
    let mut handles: FxHashMap<ThreadHandle, Vec<usize>> = FxHashMap::default();
    let mut direct: Vec<usize> = Vec::new();
    let valid = |h: Option<&ThreadHandle>| h.copied().filter(|h| joins.valid.contains(h));
    let mut at: Point = 0;
    for block in &p.funcs[f].blocks {
        m.offsets.push(at);
        for e in &block.events {
            // (site, whether it is the fork's own thread, the handle whose join ends it here).
            let mut new: Vec<(Site, bool, Option<ThreadHandle>)> = Vec::new();
            match *e {
                // The parent does not wait for the child, so every thread the child starts runs
                // beside the parent, even those the child joins before it returns.
                Event::Fork { site, callee, .. } => {
                    m.callee.insert(at, callee);
                    m.fork_site.insert(at, site);
                    let own = valid(site_handle.get(&site));
                    new.push((site, true, own));
                    for &s in &started[callee] {
                        let ender = if joined_at_exit[callee].contains(&s) {
                            own
                        } else {
                            valid(site_handle.get(&s)).filter(|h| joins.global.contains(h))
                        };
                        new.push((s, false, ender));
                    }
                }
                // Threads the callee starts and joins before returning are over when the call
                // returns (accesses during the call are ordered by `inside`): no item. The
                // threads a create wrapper starts for this call end at the joins of its handle.
                Event::Call {
                    site: call,
                    callee,
                    handle,
                } => {
                    if !started[callee].is_empty() {
                        m.callee.insert(at, callee);
                    }
                    let own = valid(handle.as_ref());
                    let named = match own {
                        Some(_) => wrapped_sites(p, callee, joined_at_exit, started, joins),
                        None => FxHashSet::default(),
                    };
                    for &s in &started[callee] {
                        let untaken = joins.untaken.contains(&(call, s))
                            && started_only_by_own_fork(p, callee, s, started);
                        if !joined_at_exit[callee].contains(&s) && !untaken {
                            let h = if named.contains(&s) {
                                own
                            } else {
                                valid(site_handle.get(&s)).filter(|h| joins.global.contains(h))
                            };
                            new.push((s, false, h));
                        }
                    }
                }
                _ => {}
            }
            for (site, own, ender) in new {
                let i = m.items.len();
                m.items.push((at, site));
                m.enders.push(ender);
                m.index_of.entry((at, site)).or_default().push(i);
                m.at_point.entry(at).or_default().push(i);
                if own {
                    direct.push(i);
                }
                if let Some(h) = ender {
                    handles.entry(h).or_default().push(i);
                }
            }
            at += 1;
        }
    }
    Items {
        m,
        direct,
        handles,
        total: at as usize,
    }
}

/// Whether a run of `w` can start a thread of fork site `s` only by its own fork `s`: no other
/// fork of `w` starts a thread that may start `s`, and no function `w` calls may start it. A call
/// of a create wrapper that passes another function than `s` runs
/// ([`ThreadProgram::untaken_forks`]) then starts no thread of `s`.
fn started_only_by_own_fork(
    p: &ThreadProgram,
    w: FnId,
    s: Site,
    started: &IndexVec<FnId, Vec<Site>>,
) -> bool {
    p.funcs[w]
        .blocks
        .iter()
        .flat_map(|b| &b.events)
        .all(|e| match *e {
            Event::Fork { callee, .. } | Event::Call { callee, .. } => {
                started[callee].binary_search(&s).is_err()
            }
            _ => true,
        })
}

/// The fork sites all of whose threads that a run of create wrapper `w` may leave running are
/// started by its wrapped forks ([`ThreadProgram::wrapped`]) during that run: the fork's own
/// site, and the sites its thread joins before it ends (as for a fork's own handle, see
/// [`items`]). A site that the run may also start another way — another fork, a wrapped fork on
/// a cycle (several threads, of which the caller's id names one; but a pool's create loop, of
/// [`ThreadProgram::wrapped_loops`], whose threads the handle names all of), a call, or a thread
/// the wrapped thread leaves running — is not named by the call's handle: its join would miss
/// them.
fn wrapped_sites(
    p: &ThreadProgram,
    w: FnId,
    joined_at_exit: &IndexVec<FnId, FxHashSet<Site>>,
    started: &IndexVec<FnId, Vec<Site>>,
    joins: &Joins<'_>,
) -> FxHashSet<Site> {
    let mut named = FxHashSet::default();
    let mut other = FxHashSet::default();
    for (b, block) in p.funcs[w].blocks.iter().enumerate() {
        let cyclic = joins.cyclic[w].get(b).copied().unwrap_or(true);
        for e in &block.events {
            match *e {
                Event::Fork {
                    site,
                    callee,
                    handle,
                } => {
                    let wrapped = handle.is_some_and(|h| {
                        joins.wrapped.contains(&h) && (!cyclic || joins.wrapped_loops.contains(&h))
                    });
                    if wrapped {
                        named.insert(site);
                    } else {
                        other.insert(site);
                    }
                    for &s in &started[callee] {
                        if wrapped && joined_at_exit[callee].contains(&s) {
                            named.insert(s);
                        } else {
                            other.insert(s);
                        }
                    }
                }
                Event::Call { callee, .. } => other.extend(started[callee].iter().copied()),
                _ => {}
            }
        }
    }
    named.retain(|s| !other.contains(s));
    named
}

/// The live-thread analysis of one function that may fork, and the fork sites it joins before
/// returning.
fn analyse(
    p: &ThreadProgram,
    f: FnId,
    site_handle: &FxHashMap<Site, ThreadHandle>,
    joined_at_exit: &IndexVec<FnId, FxHashSet<Site>>,
    started: &IndexVec<FnId, Vec<Site>>,
    joins: &Joins<'_>,
    site_self_overlap: &mut FxHashMap<Site, bool>,
) -> (FnMhp, FxHashSet<Site>) {
    let blocks = &p.funcs[f].blocks;
    let Items {
        mut m,
        direct,
        handles,
        total,
    } = items(p, f, site_handle, joined_at_exit, started, joins);
    let width = m.items.len();

    // The transfer of one block from its entry state; records states before events if asked.
    let transfer = |b: usize,
                    mut live: FixedBitSet,
                    record: &mut Option<&mut Vec<FixedBitSet>>|
     -> FixedBitSet {
        let base = m.offsets[b];
        let events = &blocks[b].events;
        let step = |live: &mut FixedBitSet, k: usize| {
            let point = base + k as u32;
            let kill = |live: &mut FixedBitSet, h: ThreadHandle| {
                if joins.kills(h) {
                    for &i in handles.get(&h).map(Vec::as_slice).unwrap_or(&[]) {
                        live.set(i, false);
                    }
                }
            };
            for &i in m.at_point.get(&point).map(Vec::as_slice).unwrap_or(&[]) {
                live.insert(i);
            }
            match events[k] {
                // The callee joins these before returning (a `stop` function). Only a global
                // handle's join ends threads this run started; a local handle the callee joins
                // names its own run's threads.
                Event::Call { callee, .. } => {
                    for &h in &joins.summary[callee].joins_at_exit {
                        if joins.global.contains(&h) {
                            kill(live, h);
                        }
                    }
                }
                Event::Join(h) => kill(live, h),
                _ => {}
            }
        };
        let alternative = |k: usize| match events[k] {
            Event::Call { site, .. } => p.alternative_of(site),
            _ => None,
        };
        let mut k = 0;
        while k < events.len() {
            let Some(call) = alternative(k) else {
                if let Some(out) = record.as_deref_mut() {
                    out[(base + k as u32) as usize] = live.clone();
                }
                step(&mut live, k);
                k += 1;
                continue;
            };
            // Only one target of a call through a pointer runs, from the threads live before
            // the call: a thread is live after it if it is after any one target.
            let start = std::mem::replace(&mut live, FixedBitSet::with_capacity(width));
            while k < events.len() && alternative(k) == Some(call) {
                if let Some(out) = record.as_deref_mut() {
                    out[(base + k as u32) as usize] = start.clone();
                }
                let mut one = start.clone();
                step(&mut one, k);
                live.union_with(&one);
                k += 1;
            }
        }
        live
    };

    let entry = dataflow::forward(
        &mut (),
        blocks.len(),
        |b| &blocks[b].succs,
        FixedBitSet::with_capacity(width),
        |_, b, live| Some(transfer(b, live, &mut None)),
        |_, into, incoming| dataflow::union_bits(into, incoming),
    );

    let mut live_before = vec![FixedBitSet::with_capacity(width); total];
    let mut at_return = FixedBitSet::with_capacity(width);
    for (b, input) in entry.into_iter().enumerate() {
        let Some(input) = input else {
            continue;
        };
        let mut record = Some(&mut live_before);
        let out = transfer(b, input, &mut record);
        if blocks[b].returns {
            at_return.union_with(&out);
        }
    }
    m.live_before = live_before;
    let mut first: FxHashMap<&FixedBitSet, Point> = FxHashMap::default();
    m.same_live = (0..total as Point)
        .map(|at| {
            if m.callee.contains_key(&at) {
                return at;
            }
            *first.entry(&m.live_before[at as usize]).or_insert(at)
        })
        .collect();

    // Exit summary: the sites started here (directly or by callees) none of whose items is live
    // at a return.
    let mut live_sites_at_return: FxHashSet<Site> = FxHashSet::default();
    for i in at_return.ones() {
        live_sites_at_return.insert(m.items[i].1);
    }
    let jae = started[f]
        .iter()
        .copied()
        .filter(|s| !live_sites_at_return.contains(s))
        .collect();
    for &i in &direct {
        let (k, site) = m.items[i];
        site_self_overlap.insert(site, m.live_before[k as usize].contains(i));
    }
    (m, jae)
}
