//! Correlations for C carried up to the thread roots (paper §3.1, "Inferring Correlations").
//!
//! An access to ρ in function f holding the relative lockset (held, released) is the fact
//! `ρ ▷ held` relative to f's entry. The paper propagates such constraints backwards along the
//! control flow, adding at each split the locks held by the caller; here each fact is translated
//! through every call of f — labels by their images at the call's site (figure 8b), and locks as
//! `held' = φ(held) ∪ (caller's held − φ(released))` — until it reaches `main`. Through a fork the
//! fact becomes the child thread's and gains none of the parent's locks; from then on it is only
//! renamed. Facts also walk backwards along flow and summary edges (figure 8b, first rule) and, at
//! the root, from a call's result back into the function that allocated it (tagged with the call,
//! as for λ▷, so copies allocated by different calls stay apart).
//!
//! Every label of a strongly connected component of the flow graph has the same correlations
//! (the first rule of figure 8b moves each along every edge into its label), so a fact is kept
//! once per component, at its representative ([`Components`]); the rules that depend on the
//! label itself (images at a site, the label's home, a result's generic labels) are applied to
//! each member of the component, and their results are memoised per component.
//!
//! Each fact also records *where* in its function the access happens — the event itself, or the
//! call or fork through which it was reached — so that the check can tell which threads may be
//! running at that moment ([`super::mhp`]). A fact that crosses a fork keeps that position as
//! the child's function saw it, with the positions it kept from deeper forks ([`super::nest`]):
//! at the home, where the child is only a thread the home started, they still order it with
//! what the child's own children do. A fact on a label private to a run of a function
//! ([`super::privacy`]) stops at that function: above it, the runs of the function would be
//! confused with one another.

use std::collections::BTreeMap;
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::linearity::Linearity;
use super::locksets::{translate, LockSets, Locksets, SetId, State};
use super::mhp::{HandleSetId, HandleSets, Mhp, Point, SiteSetId, SiteSets};
use super::nest::{Level, NestId, Nests};
use super::phases::Phase;
use super::privacy::Homes;
use super::structure::CallPoint;
use super::structure::Structure;
use super::{AccessId, Event, FnId, ThreadProgram};
use crate::cfl::Components;
use crate::constraints::{Constraints, Rho, Site};
use crate::correlation::Index;
use crate::ids::IndexVec;
use crate::locks::LockTable;
use crate::scope::{Scope, ScopeTree};

crate::define_id!(
    /// A derived C correlation fact.
    pub struct CFactId, "cf";
);

/// Which thread performs an access, as seen from the fact's function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Thread {
    /// The thread that is running the fact's function (the main thread, at `main`).
    Current,
    /// A thread started by the fork at this site.
    Forked(Site),
}

/// The most entries the per-context memos of propagation (`caller_memo`, `translated_memo`)
/// keep: beyond it they are emptied and fill again. They grow with the contexts, not with the
/// program (2.6 million translations at a million lines), so unbounded they would hold as much
/// as the facts themselves; the work propagation does next is mostly about the contexts it
/// has just made, which the refilled memo holds again.
const MEMO_CAP: usize = 1 << 20;

/// The hash of a fact's key in [`Prop::lookup`].
fn hash_key(key: &FactKey) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(key)
}

/// What identifies a fact: everything but its write flag and its derivations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FactKey {
    /// The representative of the flow component of the accessed labels ([`Components`]): the
    /// fact holds for each of its members.
    pub rho: Rho,
    pub held: SetId,
    /// Only meaningful while `thread` is `Current` (the caller may hold more locks).
    pub released: SetId,
    pub func: FnId,
    pub thread: Thread,
    /// See [`crate::correlation::Fact::tag`].
    pub tag: Option<Site>,
    /// Where in `func` the access, or the call or fork leading to it, happens.
    pub point: Point,
    /// The unique threads that the accessing thread has certainly joined before the access.
    pub joined: HandleSetId,
    /// For a `Current` fact reached through a call: the fork sites whose threads, started during
    /// that call (before the access), may still be running at the access. An access before a
    /// fork of the call, or after joining what it forked, is ordered with those threads.
    pub inside: SiteSetId,
    /// The fact crossed a call or fork on a label of the callee's own scope that the caller
    /// cannot name (no image): above that site it stands for the copy made by one run of the
    /// callee. Two internal facts of one run were compared in the callee (where the label is
    /// its own), and two of different runs are about different copies, so above the callee an
    /// internal fact is only compared with facts that are not.
    pub internal: bool,
    /// For a `Forked` fact: its context in the function of the thread it left through the fork it
    /// crossed last, and deeper ([`super::nest`]), so that the check can order it with another
    /// fact under the same thread as that thread does.
    pub nest: NestId,
    /// The barrier phase of the accesses ([`super::phases`]): a property of the access, kept
    /// unchanged through every translation.
    pub phase: Phase,
}

/// A correlation `ρ ▷ held` of one or more accesses, as seen from `key.func`.
#[derive(Clone, Debug)]
pub struct CFact {
    pub key: FactKey,
    pub writes: bool,
}

impl std::ops::Deref for CFact {
    type Target = FactKey;
    fn deref(&self) -> &FactKey {
        &self.key
    }
}

/// How the facts were derived: the accesses each fact stands for directly, and the facts it was
/// translated from. The accesses behind a fact are found by walking these back ([`witnesses`])
/// only for the facts that end up in a warning, so propagation never revisits a fact to grow a
/// witness list. They are kept as flat lists of pairs, grouped by fact once propagation is over,
/// rather than two vectors per fact (millions of small allocations on a large program).
#[derive(Clone, Debug, Default)]
pub struct Derivations {
    /// `(fact, access)`, then grouped by fact.
    accesses: Vec<(CFactId, AccessId)>,
    /// `(fact, parent)`, then grouped by fact.
    parents: Vec<(CFactId, CFactId)>,
    /// Where each fact's pairs start in `accesses` and `parents` (one more entry than facts).
    access_start: Vec<u32>,
    parent_start: Vec<u32>,
    /// While propagating: the last parent recorded for each fact, to skip repeating it.
    last_parent: Vec<CFactId>,
}

impl Derivations {
    /// How many facts have derivations here.
    pub fn len(&self) -> usize {
        self.access_start.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many (fact, access) and (fact, parent) pairs were recorded: the derivations that
    /// reached an existing fact are among them, so this counts the work of propagation.
    pub fn pairs(&self) -> usize {
        self.accesses.len() + self.parents.len()
    }

    /// Groups the pairs by fact (keeping the order they were found in).
    fn finish(&mut self, facts: usize) {
        fn group<T: Copy>(pairs: &mut [(CFactId, T)], facts: usize) -> Vec<u32> {
            pairs.sort_by_key(|p| p.0);
            let mut start = vec![0u32; facts + 1];
            for p in pairs.iter() {
                start[p.0 .0 as usize + 1] += 1;
            }
            for k in 0..facts {
                start[k + 1] += start[k];
            }
            start
        }
        self.access_start = group(&mut self.accesses, facts);
        self.parent_start = group(&mut self.parents, facts);
        self.last_parent = Vec::new();
    }

    fn range(start: &[u32], fact: CFactId) -> std::ops::Range<usize> {
        let k = fact.0 as usize;
        start[k] as usize..start[k + 1] as usize
    }
}

/// The facts tagged with a call at the root ([`CFact::tag`](FactKey::tag)), kept as the untagged
/// facts they come from. A tagged fact is an untagged fact at the root moved to another label,
/// with the call's site as its tag: everything else about it — thread, point, joined and inside
/// sets, internal flag, locks, write flag, the accesses behind it — is its source's. Every
/// untagged fact at the root of one component moves through the same calls (the results a
/// component reaches depend on its labels only), so the sources are kept by component: a copy
/// is the root facts of a few components, and copies made by many calls (an allocator called
/// from a thousand places) are mostly the same few groups of facts.
#[derive(Clone, Debug, Default)]
pub struct Tagged {
    /// For each generic result component reached at the root: `(site, source component)`, sorted.
    seeds: FxHashMap<Rho, Vec<(Site, Rho)>>,
    /// For each component checked at the root: the generic result components reaching it.
    sources: FxHashMap<Rho, Vec<Rho>>,
    /// The untagged facts at the root of each source component, ascending.
    root_facts: FxHashMap<Rho, Vec<CFactId>>,
}

impl Tagged {
    /// Whether some tagged fact is at component `comp`.
    pub fn reaches(&self, comp: Rho) -> bool {
        self.sources.contains_key(&comp)
    }

    /// The tagged facts at component `comp` as their source facts: one group per copy (the
    /// facts tagged with one call), each group sorted, and each distinct group once, in
    /// ascending order. The check's verdict on a copy depends only on its facts, so copies with
    /// the same facts are checked once.
    pub fn copies(&self, comp: Rho) -> Vec<Vec<CFactId>> {
        let mut by_site: BTreeMap<Site, Vec<Rho>> = BTreeMap::new();
        for generic in self.sources.get(&comp).map(Vec::as_slice).unwrap_or(&[]) {
            for &(site, source) in &self.seeds[generic] {
                by_site.entry(site).or_default().push(source);
            }
        }
        let mut groups: std::collections::BTreeSet<Vec<Rho>> = std::collections::BTreeSet::new();
        for mut sources in by_site.into_values() {
            sources.sort();
            sources.dedup();
            groups.insert(sources);
        }
        groups
            .into_iter()
            .map(|sources| {
                let mut facts: Vec<CFactId> = sources
                    .iter()
                    .flat_map(|x| self.root_facts.get(x).map(Vec::as_slice).unwrap_or(&[]))
                    .copied()
                    .collect();
                facts.sort();
                facts.dedup();
                facts
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    }
}

/// Every access behind any of `facts_from`, sorted: one walk over their derivations, so a
/// derivation shared by many facts is walked once.
pub fn witnesses(derivations: &Derivations, facts_from: &[CFactId]) -> Vec<AccessId> {
    let d = derivations;
    let mut seen = fixedbitset::FixedBitSet::with_capacity(d.len());
    let mut stack = facts_from.to_vec();
    let mut out = Vec::new();
    while let Some(id) = stack.pop() {
        if seen.put(crate::ids::Idx::index(id)) {
            continue;
        }
        let accesses = &d.accesses[Derivations::range(&d.access_start, id)];
        out.extend(accesses.iter().map(|p| p.1));
        let parents = &d.parents[Derivations::range(&d.parent_start, id)];
        stack.extend(parents.iter().map(|p| p.1));
    }
    out.sort();
    out.dedup();
    out
}

/// A fact's context as seen in a caller ([`Prop::caller_view`]).
#[derive(Copy, Clone, Debug)]
struct Caller {
    held: SetId,
    released: SetId,
    point: Point,
    joined: HandleSetId,
    inside: SiteSetId,
}

/// What [`Prop::caller_view`] depends on: the fact's function, which of its calls, its locks,
/// whether it is the current thread's, its point, joined threads and threads started inside.
type CallerKey = (FnId, u32, SetId, SetId, bool, Point, HandleSetId, SiteSetId);

/// How many members of a component have one scope and home.
type MemberGroup = ((Scope, Option<FnId>), usize);

/// The components a fact reaches in a caller, each with whether it is an internal copy.
type Images = Rc<[(Rho, bool)]>;

/// No fact: the last parent of a fact that has none yet.
const NO_FACT: CFactId = CFactId(u32::MAX);

/// Components with more members than this are translated by [`Prop::translated_large`].
const LARGE_COMPONENT: usize = 64;

struct Prop<'a> {
    c: &'a Constraints,
    scopes: &'a ScopeTree,
    p: &'a ThreadProgram,
    s: &'a Structure,
    comps: &'a Components,
    index: &'a Index,
    locks: &'a mut LockTable,
    linearity: &'a Linearity,
    ls: &'a mut Locksets,
    mhp: &'a Mhp,
    homes: &'a Homes,
    /// The `(call site, fork site)` pairs of [`ThreadProgram::untaken_forks`] that no fact of
    /// the fork's threads crosses ([`untaken`]).
    untaken: FxHashSet<(Site, Site)>,
    handle_sets: HandleSets,
    site_sets: SiteSets,
    nests: Nests,
    facts: IndexVec<CFactId, CFact>,
    /// The id of each fact, found by its key: a table of ids hashed by the key they point to,
    /// so that a key is stored once (in `facts`) rather than twice (about 60 bytes a fact).
    lookup: hashbrown::HashTable<CFactId>,
    /// Per component representative: whether facts there can lead to a checked label
    /// ([`useful_components`]); no fact is made elsewhere.
    useful: Vec<bool>,
    derivations: Derivations,
    work: Vec<CFactId>,
    /// Per component, site and callee: the components a fact of the callee reaches in the caller
    /// through the site, each with whether it is an internal copy ([`Prop::translated`]).
    translated_memo: FxHashMap<(Rho, Site, FnId), Images>,
    /// [`Prop::translate_set`] and [`Prop::translate_released`] by (set, site): the same few
    /// lock sets cross each call site again and again.
    set_memo: FxHashMap<(SetId, Site, bool), SetId>,
    /// [`Prop::caller_view`], by the fact's function, the call's index, and the fact's context.
    caller_memo: FxHashMap<CallerKey, Option<Caller>>,
    /// Per component at the root: the generic result labels' components of its members, with
    /// the site ([`Prop::results`]).
    results_memo: FxHashMap<Rho, Vec<(Site, Rho)>>,
    /// The images at each site, by generic label (built on first use, for large components).
    images_at: FxHashMap<Site, Vec<(Rho, Vec<Rho>)>>,
    /// The members of each large component counted by scope and home.
    groups: FxHashMap<Rho, Vec<MemberGroup>>,
    /// The components of the untagged facts at the root ([`Prop::tagged`]).
    root_comps: FxHashSet<Rho>,
}

impl Prop<'_> {
    /// Records `key`, derived from `origin` (an access, or the fact being propagated). A known
    /// fact is revisited only when it learns that it covers a write.
    fn add(&mut self, key: FactKey, writes: bool, origin: Result<AccessId, CFactId>) {
        if !self.useful[key.rho.0 as usize] {
            return;
        }
        let hash = hash_key(&key);
        let facts = &mut self.facts;
        let (id, new) = match self.lookup.find(hash, |&id| facts[id].key == key) {
            Some(&id) => (id, false),
            None => {
                let id = facts.push(CFact { key, writes });
                self.lookup
                    .insert_unique(hash, id, |&id| hash_key(&facts[id].key));
                self.derivations.last_parent.push(NO_FACT);
                (id, true)
            }
        };
        let d = &mut self.derivations;
        match origin {
            Ok(a) => d.accesses.push((id, a)),
            Err(parent) if d.last_parent[id.0 as usize] != parent => {
                d.last_parent[id.0 as usize] = parent;
                d.parents.push((id, parent));
            }
            Err(_) => {}
        }
        if new {
            self.work.push(id);
        } else if writes && !self.facts[id].writes {
            self.facts[id].writes = true;
            self.work.push(id);
        }
    }

    fn state_at(&self, f: FnId, block: u32, index: u32) -> State {
        self.ls.state_before(f, block, index)
    }

    /// A callee's lockset as seen by the caller at `site`. A linear lock of the callee may have
    /// a non-linear image (two objects' locks meet in the caller), which never counts as held.
    fn translate_set(&mut self, set: SetId, site: Site) -> SetId {
        if set == LockSets::EMPTY {
            return set;
        }
        if let Some(&out) = self.set_memo.get(&(set, site, true)) {
            return out;
        }
        let (c, scopes, linearity) = (self.c, self.scopes, self.linearity);
        let locks = &mut *self.locks;
        let out = self.ls.sets.map(set, |l| {
            translate(c, scopes, locks, site, l).filter(|&x| linearity.is_linear(locks, x))
        });
        self.set_memo.insert((set, site, true), out);
        out
    }

    /// A released set as a caller sees it: translated through `site` (a lock local to the
    /// callee means nothing there), or every lock if one of them is a lock that stands for no
    /// lock the program made (`Linearity::is_ungrounded`).
    fn translate_released(&mut self, set: SetId, site: Site) -> SetId {
        if set == LockSets::EMPTY {
            return set;
        }
        if let Some(&out) = self.set_memo.get(&(set, site, false)) {
            return out;
        }
        let out = self.translate_released_uncached(set, site);
        self.set_memo.insert((set, site, false), out);
        out
    }

    fn translate_released_uncached(&mut self, set: SetId, site: Site) -> SetId {
        let (c, scopes, linearity) = (self.c, self.scopes, self.linearity);
        let locks = &mut *self.locks;
        let mut releases_all = false;
        let out = self.ls.sets.map(set, |l| {
            let image = translate(c, scopes, locks, site, l);
            releases_all |= image.is_some_and(|x| linearity.is_ungrounded(locks, x));
            image
        });
        if releases_all {
            LockSets::ALL
        } else {
            out
        }
    }

    fn run(&mut self) {
        let main = self.p.main;
        while let Some(id) = self.work.pop() {
            let (f, writes) = (self.facts[id].key, self.facts[id].writes);
            let key_rest = |rho: Rho| FactKey { rho, ..f };

            // Figure 8b, first rule: backwards along flow and summary edges (within a component
            // the fact is already everywhere).
            let comps = self.comps;
            for &pred in &comps.preds[f.rho] {
                self.add(key_rest(pred), writes, Err(id));
            }

            if Some(f.func) == main {
                // At the root: from a call's result back into the function that made it,
                // tagged with the call ([`Prop::tagged`], once every root fact is known).
                self.root_comps.insert(f.rho);
                continue;
            }

            // Through every call of the fact's function: the caller's view; a thread the call
            // never starts ([`ThreadProgram::untaken_forks`]) has no facts there.
            let s = self.s;
            for (k, pt) in s.callers[f.func].iter().enumerate() {
                if let Thread::Forked(fork) = f.thread {
                    if self.untaken.contains(&(pt.site, fork)) {
                        continue;
                    }
                }
                let Some(Caller {
                    held,
                    released,
                    point,
                    joined,
                    inside,
                }) = self.caller_view(&f, k, pt)
                else {
                    continue;
                };
                let images = self.translated(f.rho, pt.site, f.func);
                for &(rho, internal) in images.iter() {
                    let key = FactKey {
                        rho,
                        held,
                        released,
                        func: pt.caller,
                        thread: f.thread,
                        tag: None,
                        point,
                        joined,
                        inside,
                        internal: f.internal || internal,
                        nest: f.nest,
                        phase: f.phase,
                    };
                    self.add(key, writes, Err(id));
                }
            }
            // Through every fork of the fact's function: the child thread starts with no locks.
            // The fact keeps where it was in the child's function ([`super::nest`]), unless that
            // function starts no thread (every fact in it is then the child's own, and nothing
            // is ordered there) or the fork is on a cycle of calls and forks (the child may start
            // threads that start its like again: nests would only grow, one level per turn, and
            // multiply the facts by the positions of each level).
            for pt in &s.forkers[f.func] {
                let held = self.translate_set(f.held, pt.site);
                let thread = match f.thread {
                    Thread::Current => Thread::Forked(pt.site),
                    t => t,
                };
                let cyclic = s.thread_scc_of[pt.caller] == s.thread_scc_of[f.func];
                let nest = if self.mhp.may_fork[f.func] && !cyclic {
                    // The child's own accesses at points that start no thread are told apart
                    // only by the threads running there.
                    let point = match f.thread {
                        Thread::Current => self.mhp.same_threads_point(f.func, f.point),
                        Thread::Forked(_) => f.point,
                    };
                    let level = Level {
                        site: pt.site,
                        func: f.func,
                        thread: f.thread,
                        point,
                        joined: f.joined,
                        inside: f.inside,
                    };
                    self.nests.push(level, f.nest)
                } else {
                    NestId::NONE
                };
                let point = self.mhp.point(pt.caller, pt.block, pt.index);
                let joined = self.joined_through(pt, f.joined);
                let images = self.translated(f.rho, pt.site, f.func);
                for &(rho, internal) in images.iter() {
                    let key = FactKey {
                        rho,
                        held,
                        released: LockSets::EMPTY,
                        func: pt.caller,
                        thread,
                        tag: None,
                        point,
                        joined,
                        inside: self.site_sets.empty(),
                        internal: f.internal || internal,
                        nest,
                        phase: f.phase,
                    };
                    self.add(key, writes, Err(id));
                }
            }
        }
    }

    /// What a fact's context (locks, point, joined threads, threads started inside) becomes in
    /// the caller at `pt`, the `k`-th call of the fact's function; `None` where the call is
    /// unreachable. It does not depend on the fact's label, so it is computed once for the
    /// facts of every label that share it.
    fn caller_view(&mut self, f: &FactKey, k: usize, pt: &CallPoint) -> Option<Caller> {
        let current = matches!(f.thread, Thread::Current);
        let memo_key = (
            f.func, k as u32, f.held, f.released, current, f.point, f.joined, f.inside,
        );
        if let Some(v) = self.caller_memo.get(&memo_key) {
            return *v;
        }
        let state = self.state_at(pt.caller, pt.block, pt.index);
        let view = match state.held {
            None => None,
            Some(caller_held) => {
                let held = self.translate_set(f.held, pt.site);
                let (held, released) = if current {
                    let released = self.translate_released(f.released, pt.site);
                    let kept = self.ls.sets.minus(caller_held, released);
                    let held = self.ls.sets.union(held, kept);
                    let rel_kept = self.ls.sets.minus(state.released, held);
                    (held, self.ls.sets.union(rel_kept, released))
                } else {
                    (held, LockSets::EMPTY)
                };
                let point = self.mhp.point(pt.caller, pt.block, pt.index);
                let joined = self.joined_through(pt, f.joined);
                let inside = if current {
                    let here = self.mhp.live_sites(f.func, f.point);
                    let here = self.site_sets.intern(here);
                    self.site_sets.union(f.inside, here)
                } else {
                    self.site_sets.empty()
                };
                Some(Caller {
                    held,
                    released,
                    point,
                    joined,
                    inside,
                })
            }
        };
        if self.caller_memo.len() >= MEMO_CAP {
            self.caller_memo.clear();
        }
        self.caller_memo.insert(memo_key, view);
        view
    }

    /// The unique threads joined before an access, as seen from a caller (or forker): those the
    /// caller joined before the call, and those joined inside.
    fn joined_through(&mut self, pt: &CallPoint, inside: HandleSetId) -> HandleSetId {
        let before = self.mhp.joined_at(pt.caller, pt.block, pt.index);
        self.handle_sets.union(before, inside)
    }

    /// The facts tagged with a call at the root (ARCHITECTURE.md, departure 2): an untagged
    /// fact at the root reaching the result of a call at `site` moves into the function's
    /// generic result labels, tagged with `site`, and from there backwards along flow and into
    /// the results of further calls, keeping its tag. Facts at the root never leave it, and the
    /// check reads tagged facts only at labels checked at the root, and only when the untagged
    /// facts there do not race already. So instead of walking each tagged fact through every
    /// component it reaches (mt-daapd: 440 tags times every context of a fact times 5 000
    /// components), the components reachable from each generic result are found once, and
    /// the check asks [`Tagged::copies`] for the tagged facts of a component when it needs them.
    fn tagged(&mut self) -> Tagged {
        let main = self.p.main;
        let (comps, homes) = (self.comps, self.homes);
        let targets: rustc_hash::FxHashSet<Rho> = self
            .p
            .checked
            .iter()
            .filter(|&&r| homes.home_of(r).or(main) == main)
            .map(|&r| comps.of[r])
            .collect();
        let mut root_comps: Vec<Rho> = std::mem::take(&mut self.root_comps).into_iter().collect();
        root_comps.sort();
        let mut tagged = Tagged::default();
        for &source in &root_comps {
            for (site, generic) in self.results(source) {
                tagged
                    .seeds
                    .entry(generic)
                    .or_default()
                    .push((site, source));
            }
        }
        let mut seeded: FxHashSet<Rho> = FxHashSet::default();
        for v in tagged.seeds.values_mut() {
            v.sort();
            seeded.extend(v.iter().map(|&(_, source)| source));
        }
        for (id, f) in self.facts.iter_enumerated() {
            if Some(f.func) == main && seeded.contains(&f.rho) {
                tagged.root_facts.entry(f.rho).or_default().push(id);
            }
        }
        let mut generics: Vec<Rho> = tagged.seeds.keys().copied().collect();
        generics.sort();
        for generic in generics {
            for rho in self.reach_at_root(generic, &targets) {
                tagged.sources.entry(rho).or_default().push(generic);
            }
        }
        tagged
    }

    /// The components in `targets` reachable at the root from component `start`: backwards
    /// along flow and summary edges and from call results into their functions (sorted).
    fn reach_at_root(&mut self, start: Rho, targets: &rustc_hash::FxHashSet<Rho>) -> Vec<Rho> {
        let comps = self.comps;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![start];
        seen.insert(start);
        let mut out = Vec::new();
        while let Some(x) = stack.pop() {
            if targets.contains(&x) {
                out.push(x);
            }
            let results = self.results(x);
            for y in comps.preds[x]
                .iter()
                .copied()
                .chain(results.into_iter().map(|(_, g)| g))
            {
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        out.sort();
        out
    }

    /// What a fact of component `comp` in function `callee` becomes in the caller at `site`: the
    /// components of the images of its members (each with whether it is an internal copy,
    /// [`Prop::images`]), sorted. A member whose home is `callee` is a location of one run of
    /// the callee: its callers see other locations, so it has none.
    fn translated(&mut self, comp: Rho, site: Site, callee: FnId) -> Images {
        if let Some(v) = self.translated_memo.get(&(comp, site, callee)) {
            return v.clone();
        }
        let comps = self.comps;
        let mut out = Vec::new();
        if comps.members[comp].len() <= LARGE_COMPONENT {
            for &member in &comps.members[comp] {
                if self.homes.home_of(member) == Some(callee) {
                    continue;
                }
                let (images, internal) = self.images(member, site);
                out.extend(images.into_iter().map(|r| (comps.of[r], internal)));
            }
        } else {
            self.translated_large(comp, site, callee, &mut out);
        }
        out.sort();
        out.dedup();
        let out: Images = out.into();
        if self.translated_memo.len() >= MEMO_CAP {
            self.translated_memo.clear();
        }
        self.translated_memo
            .insert((comp, site, callee), out.clone());
        out
    }

    /// [`Prop::translated`] for a large component, without visiting each member: the members
    /// with an image at `site` are found in the site's images, and the others stay themselves,
    /// an internal copy when generic at the site's binder. Those depend only on a member's
    /// scope and home, so the members are counted by (scope, home) once per component, and a
    /// group contributes the component itself when some member of it has no image at `site`.
    fn translated_large(
        &mut self,
        comp: Rho,
        site: Site,
        callee: FnId,
        out: &mut Vec<(Rho, bool)>,
    ) {
        let (c, comps, homes, scopes) = (self.c, self.comps, self.homes, self.scopes);
        if self.images_at.is_empty() {
            for (&(generic, s), images) in &self.index.rho_images {
                self.images_at
                    .entry(s)
                    .or_default()
                    .push((generic, images.clone()));
            }
            for v in self.images_at.values_mut() {
                v.sort();
            }
        }
        let groups = self.groups.entry(comp).or_insert_with(|| {
            let mut g: BTreeMap<(Scope, Option<FnId>), usize> = BTreeMap::new();
            for &m in &comps.members[comp] {
                *g.entry((c.rhos[m].scope, homes.home_of(m))).or_default() += 1;
            }
            g.into_iter().collect()
        });
        let mut with_image: FxHashMap<(Scope, Option<FnId>), usize> = FxHashMap::default();
        for (m, images) in self.images_at.get(&site).map(Vec::as_slice).unwrap_or(&[]) {
            if comps.of[*m] != comp {
                continue;
            }
            let home = homes.home_of(*m);
            *with_image.entry((c.rhos[*m].scope, home)).or_default() += 1;
            if home != Some(callee) {
                out.extend(images.iter().map(|&r| (comps.of[r], false)));
            }
        }
        let binder = c.sites[site].binder;
        for &((scope, home), count) in groups.iter() {
            if home == Some(callee) || with_image.get(&(scope, home)).copied().unwrap_or(0) >= count
            {
                continue;
            }
            let generic = binder != Scope::ROOT && scopes.within(scope, binder);
            out.push((comp, generic));
        }
    }

    /// For a fact of component `comp` at the root: the function's generic result labels that
    /// its members are results of, as components, with the call's site (sorted).
    fn results(&mut self, comp: Rho) -> Vec<(Site, Rho)> {
        if let Some(v) = self.results_memo.get(&comp) {
            return v.clone();
        }
        let (comps, index) = (self.comps, self.index);
        let mut out = Vec::new();
        for member in &comps.members[comp] {
            if let Some(gens) = index.result_of.get(member) {
                out.extend(gens.iter().map(|&(site, g)| (site, comps.of[g])));
            }
        }
        out.sort();
        out.dedup();
        self.results_memo.insert(comp, out.clone());
        out
    }

    /// A callee's label as seen by the caller at `site`: its images. A label of the callee's own
    /// scope without an image (a local or an allocation of the callee that the caller cannot
    /// name) stays itself, but stands for a new location at each run of the callee: the fact is
    /// then *internal* (see [`FactKey::internal`]).
    fn images(&self, rho: Rho, site: Site) -> (Vec<Rho>, bool) {
        match self.index.rho_images.get(&(rho, site)) {
            Some(v) => (v.clone(), false),
            None => {
                let binder = self.c.sites[site].binder;
                let generic =
                    binder != Scope::ROOT && self.scopes.within(self.c.rhos[rho].scope, binder);
                (vec![rho], generic)
            }
        }
    }
}

/// The pairs `(c, s)` of [`ThreadProgram::untaken_forks`] such that a fact of a thread of fork
/// site `s` in the callee `w` of call `c` can only have come through `w`'s own fork `s`, which
/// `c` never takes: no other fork of `w` starts threads that may start `s` in turn, and no
/// function `w` calls may start it. (A fact keeps the site of the thread that made it, not of
/// the fork it left `w` through: a child that a thread started by another fork of `w` starts
/// through `w` again, `spawn` used at two levels, has the site of the child.)
fn untaken(p: &ThreadProgram, s: &Structure, mhp: &Mhp) -> FxHashSet<(Site, Site)> {
    if p.untaken_forks.is_empty() {
        return FxHashSet::default();
    }
    let mut callee_of: FxHashMap<Site, FnId> = FxHashMap::default();
    for (f, points) in s.callers.iter_enumerated() {
        for pt in points {
            callee_of.insert(pt.site, f);
        }
    }
    p.untaken_forks
        .iter()
        .filter(|&&(call, fork)| {
            let Some(&w) = callee_of.get(&call) else {
                return false;
            };
            p.funcs[w]
                .blocks
                .iter()
                .flat_map(|b| &b.events)
                .all(|e| match *e {
                    Event::Fork { site, .. } => site == fork || !mhp.on_the_way(site, fork, fork),
                    Event::Call { callee, .. } => !mhp.may_start(callee, fork),
                    _ => true,
                })
        })
        .copied()
        .collect()
}

/// The read-only inputs of propagation.
pub struct Inputs<'a> {
    pub c: &'a Constraints,
    pub scopes: &'a ScopeTree,
    pub p: &'a ThreadProgram,
    pub s: &'a Structure,
    pub comps: &'a Components,
    pub index: &'a Index,
    pub linearity: &'a Linearity,
    pub mhp: &'a Mhp,
    pub homes: &'a Homes,
    /// The barrier phase of each access.
    pub phases: &'a IndexVec<AccessId, Phase>,
}

/// Propagates every access of `p` up to `main`, or to the home of its label, and returns all
/// facts.
pub fn propagate(inputs: Inputs<'_>, locks: &mut LockTable, ls: &mut Locksets) -> Propagated {
    let Inputs {
        c,
        scopes,
        p,
        s,
        comps,
        index,
        linearity,
        mhp,
        homes,
        phases,
    } = inputs;
    let mut prop = Prop {
        c,
        scopes,
        p,
        s,
        comps,
        index,
        locks,
        linearity,
        ls,
        mhp,
        homes,
        untaken: untaken(p, s, mhp),
        handle_sets: mhp.handle_sets.clone(),
        site_sets: SiteSets::default(),
        nests: Nests::default(),
        facts: IndexVec::new(),
        lookup: hashbrown::HashTable::new(),
        useful: useful_components(p, comps, index),
        derivations: Derivations::default(),
        work: Vec::new(),
        translated_memo: FxHashMap::default(),
        set_memo: FxHashMap::default(),
        caller_memo: FxHashMap::default(),
        results_memo: FxHashMap::default(),
        images_at: FxHashMap::default(),
        groups: FxHashMap::default(),
        root_comps: FxHashSet::default(),
    };
    for (f, body) in p.funcs.iter_enumerated() {
        for (b, block) in body.blocks.iter().enumerate() {
            for (k, e) in block.events.iter().enumerate() {
                let Event::Access(a) = *e else { continue };
                let state = prop.state_at(f, b as u32, k as u32);
                let Some(held) = state.held else { continue };
                let info = p.accesses[a];
                let held = match info.opened {
                    Some((l, mode)) => {
                        let l = prop.locks.find(l);
                        prop.ls.sets.insert(held, l, mode)
                    }
                    None => held,
                };
                let point = mhp.point(f, b as u32, k as u32);
                let joined = mhp.joined_at(f, b as u32, k as u32);
                let key = FactKey {
                    rho: comps.of[info.rho],
                    held,
                    released: state.released,
                    func: f,
                    thread: Thread::Current,
                    tag: None,
                    point,
                    joined,
                    inside: prop.site_sets.empty(),
                    internal: false,
                    nest: NestId::NONE,
                    phase: phases[a],
                };
                prop.add(key, info.write, Ok(a));
            }
        }
    }
    prop.work.reverse();
    prop.run();
    crate::stats::count("facts: caller views memoised", prop.caller_memo.len());
    crate::stats::count("facts: translations memoised", prop.translated_memo.len());
    crate::stats::count(
        "facts: images in memoised translations",
        prop.translated_memo
            .values()
            .map(|v| v.len())
            .sum::<usize>(),
    );
    crate::stats::count("facts: set translations memoised", prop.set_memo.len());
    let (sets, pairs) = prop.ls.sets.sizes();
    crate::stats::count("facts: lock sets", sets);
    crate::stats::count("facts: lock-set unions and differences memoised", pairs);
    let tagged = prop.tagged();
    let mut derivations = std::mem::take(&mut prop.derivations);
    derivations.finish(prop.facts.len());
    Propagated {
        facts: prop.facts,
        derivations,
        handle_sets: prop.handle_sets,
        site_sets: prop.site_sets,
        nests: prop.nests,
        tagged,
    }
}

/// Which components a fact can lead from to a checked label: those from which a checked label's
/// component is reachable by the moves of propagation — backwards along flow and summary edges,
/// to the images of a member at a site (or the component itself, for members without one), and
/// at the root from a call's result to the function's generic result. A fact anywhere else has
/// no descendant the check reads, and is no ancestor of one (an ancestor reaches its descendants
/// by these moves), so neither the check's facts nor the accesses behind them change when it is
/// not made. About 40 % of the facts were such dead ends (a local's label a value flowed
/// through, a parameter copied nowhere).
fn useful_components(p: &ThreadProgram, comps: &Components, index: &Index) -> Vec<bool> {
    let n = comps.of.len();
    // The moves, reversed: for each component, the components a fact can move to it from.
    let mut from: Vec<Vec<Rho>> = vec![Vec::new(); n];
    for (x, preds) in comps.preds.iter_enumerated() {
        for &pred in preds {
            from[pred.0 as usize].push(x);
        }
    }
    for (&(generic, _), images) in &index.rho_images {
        for &image in images {
            from[comps.of[image].0 as usize].push(comps.of[generic]);
        }
    }
    for (&result, generics) in &index.result_of {
        for &(_, generic) in generics {
            from[comps.of[generic].0 as usize].push(comps.of[result]);
        }
    }
    let mut useful = vec![false; n];
    let mut stack: Vec<Rho> = p.checked.iter().map(|&r| comps.of[r]).collect();
    for &x in &stack {
        useful[x.0 as usize] = true;
    }
    while let Some(x) = stack.pop() {
        for &y in &from[x.0 as usize] {
            if !useful[y.0 as usize] {
                useful[y.0 as usize] = true;
                stack.push(y);
            }
        }
    }
    useful
}

/// The result of [`propagate`].
pub struct Propagated {
    pub facts: IndexVec<CFactId, CFact>,
    pub derivations: Derivations,
    pub handle_sets: HandleSets,
    pub site_sets: SiteSets,
    pub nests: Nests,
    pub tagged: Tagged,
}
