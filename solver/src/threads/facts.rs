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
//!
//! **Representation.** A fact is a *context* ([`FactCtx`]: its function, locks, thread, point,
//! joined threads, threads started inside, nest and phase) and a location with locks of its own
//! ([`Loc::held`]). The fact holds both sets: the location's are those the access holds relative
//! to its own function, translated through each call like the labels; the context's are those
//! the callers above added (`caller's held − φ(released)`), which a translation through a call
//! only renames and extends. A context holding the locks of each access itself made a function
//! on a cycle of calls that reaches every module's accesses a context per module lock, and every
//! caller one more per point (an interpreter whose modules each guard a counter with their own
//! lock, 400 modules: 1.16 million contexts and 3.4 s, and past the bound on lock states every
//! counter raced; with the locks in the locations, 5,608 contexts, 0.9 s, no false race). The
//! check reads a context's locks, so at the functions it reads ([`Homes::checked_at`]) each
//! context is split by the locks of its locations at the end ([`Prop::held_in_contexts`]).
//!
//! What happens to the context through a call or fork does not depend on the location, and what
//! happens to the location does not depend on the context, so the facts of one context are one
//! interned location map ([`super::locmaps`]; while propagating, the part that calls may change,
//! below), and propagation moves maps from context to context: the caller's context is computed
//! once per (context, call), the map's image once per (map, call site). A callee whose locations
//! reach its caller through fifty call points, or a thread started by every one of a library's
//! callbacks, makes fifty contexts sharing one map, where facts kept one by one made fifty copies
//! of every location (sshfs: 6.8 million facts in 38,527 contexts and 275 distinct maps). Each
//! location of a map carries whether some access behind it writes and the set of accesses behind
//! it: the least fixpoint of the same rules, so a warning lists exactly the accesses whose facts
//! reach it. Functions are visited callees and thread functions first ([`Structure::thread_sccs`]),
//! so a context's map is complete before it moves on, except within a cycle of calls and forks,
//! which is iterated.
//!
//! **Invariant locations.** A location on a global whose locks are global too (a module's
//! counter under its module's mutex) is the same in every caller: no call or fork translates it.
//! Such locations are kept where they are made, and only whether a context has some is carried
//! ([`Carried`]); once the contexts and the edges between them are known, each context gets the
//! invariant locations of every context with a path to it, one list of parts for each set of
//! contexts that reach one another, the parts shared with the contexts they come from
//! ([`Prop::gather_invariant`]). Carried in each map, the module counters of an interpreter
//! whose registered functions call back into its dispatcher were copied into every context on
//! that cycle of calls, and again each round (400 modules: 7.3 million locations in maps,
//! sharing 1.0 s; kept apart, 76,000 locations and 0.38 s).
//! A label that only the calls and forks of its own function translate (a leaf of flow
//! generic in one function, [`deferred_components`]) is invariant the same way above the
//! functions ranked after every such call's ([`TranslatingRanks`]): a driver's write to the
//! buffer its caller passes, through a pointer, stays the driver's label in every caller
//! above the dispatcher, and each of those callers' maps held every driver's.
//!
//! **Bounded lock states.** Around a cycle of calls, each path may hold and release its own
//! combination of locks at its calls, and a function of the cycle would see every subset of
//! them. The released set of a function's own thread is kept only where some caller above holds
//! a lock at a call (no other caller reads it); past a bound, a new context's lock state is the
//! join of those its like have taken, which holds fewer locks ([`super::widen`]).
//!
//! **Deferred facts.** A blob that the objects of every module flow into (a `void *` every
//! callback gets) is reached by most contexts; moving its facts backwards to each of those
//! objects in every context made the maps grow as the square of the program. A move from a
//! *sticky* component (one that every call and fork leaves where it is) into a *deferred* one
//! (translated only where its scope is generic, and whose own predecessors are all deferred:
//! a leaf, or a chain of labels ending in leaves) is made only at a site that translates it
//! (`Prop::expose`); elsewhere the map leaves it implicit, and the check reads its facts from
//! the sticky components it flows into, directly or along the chain
//! ([`Propagated::deferred_into`]). The facts at every function where labels are checked are
//! the same as with every move made.

use std::collections::BTreeMap;
use std::rc::Rc;

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};

use super::check::{Ctx, Reads};
use super::contexts::Contexts;
use super::linearity::Linearity;
use super::locksets::{translate, Image, LockSets, Locksets, SetId, SetTranslations, State};
use super::locmaps::{AccSetId, Loc, LocKey, LocMaps, LocsId};
use super::mhp::{HandleSets, Mhp, SiteSets, NO_POINT};
use super::nest::Nests;
use super::phases::Phase;
use super::privacy::Homes;
use super::structure::CallPoint;
use super::structure::Structure;
use super::unmoved::Unmoved;
use super::widen::{self, Join, Widening};
use super::{AccessId, Event, FnId, ThreadProgram};
use crate::cfl::Components;
use crate::constraints::{Constraints, Polarity, Rho, Site};
use crate::correlation::{Index, Rows};
use crate::ids::{Idx, IndexVec};
use crate::locks::LockTable;
use crate::scope::{Scope, ScopeTree};
use crate::stats::Stats;

crate::define_id!(
    /// A fact context: everything a correlation fact says except its location.
    pub struct CtxId, "cx";
);

/// Which thread performs an access, as seen from the fact's function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Thread {
    /// The thread that is running the fact's function (the main thread, at `main`).
    Current,
    /// A thread started by the fork at this site.
    Forked(Site),
}

/// The most entries the per-site memos of translations (`translated_memo`) keep together, and
/// the most locations the splits of maps (`partition_memo`) hold: beyond it they are emptied
/// and fill again. It grows with the components and sites a fact crosses, not with
/// the program's size alone.
const MEMO_CAP: usize = 1 << 20;

/// The fewest locations of a map whose split ([`Prop::partition`]) is remembered: a smaller
/// one costs less to split again than its entry in the memo (the `all` shape at 1M lines,
/// whose 87,544 maps hold 5.8 locations on average: remembering every split kept 139,375 of
/// them for 429,070 images, 30–45 MiB more at the peak; sshfs keeps 5,481 of its 6,309).
const SPLIT_MIN: usize = 16;

/// The most parts a context's invariant locations are kept in, apart, once gathered
/// ([`Prop::gather_invariant`]); past it, all but the [`GATHERED_KEPT`] largest are merged.
const GATHERED_PARTS: usize = 8;

/// The parts kept apart when a context's list of parts is past [`GATHERED_PARTS`].
const GATHERED_KEPT: usize = 4;

/// A map in two parts ([`Prop::split`]): the locations that every call and fork leaves as they
/// are, and the others.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Parts {
    invariant: LocsId,
    moving: LocsId,
}

/// What propagation carries of a context's facts: the locations some call or fork may change
/// ([`Prop::split`]), and whether it has locations that none changes. Those are kept only in
/// the context where they are made, and gathered once every context is known
/// ([`Prop::gather_invariant`]). A function on a cycle of calls that reaches every module's
/// locations has a context per call point, each with those locations and the few that move at
/// its site (the caller's `struct vm *L` of an interpreter). Carried whole, each context's map
/// was a copy of all of them, made again at each round of the cycle as they arrived (400
/// modules: 26,590 maps holding 7.3 million locations).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Carried {
    moving: LocsId,
    invariant: bool,
}

impl Carried {
    const EMPTY: Carried = Carried {
        moving: LocMaps::EMPTY,
        invariant: false,
    };
}

/// A map exposed at a binder, split by what the sites of that binder into one callee do with
/// its locations ([`Prop::partition`]).
struct Partition {
    exposed: LocsId,
    /// The locations every such site leaves where they are, in the map's order.
    staying: Vec<Loc>,
    /// The others, which each site translates.
    movers: Vec<Loc>,
}

/// What a fact says apart from its location: the function it is seen from, the locks held there
/// and, while the thread is the function's own (`Current`), those it may have released since
/// the function's entry (the caller may hold more); and which thread accesses, where and after
/// what ([`Ctx`]). A location of a context's map may also be *internal*: the fact crossed a call
/// or fork on a label of the callee's own scope that the caller cannot name (no image), and
/// above that site it stands for the copy made by one run of the callee. Two internal facts of
/// one run were compared in the callee (where the label is its own), and two of different runs
/// are about different copies, so above the callee an internal fact is only compared with facts
/// that are not.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FactCtx {
    pub func: FnId,
    pub held: SetId,
    pub released: SetId,
    /// `thread`, `point` (where in `func` the access, or the call or fork leading to it,
    /// happens), `joined` (the unique threads the accessing thread has certainly joined
    /// before), `inside` (for a `Current` fact reached through a call: the fork sites whose
    /// threads, started during that call before the access, may still be running at it),
    /// `nest` (for a `Forked` fact: its context in the function of the thread it left through
    /// the fork it crossed last, and deeper) and `phase` (the barrier phase of the accesses, a
    /// property of the access kept unchanged through every translation).
    pub ctx: Ctx,
}

/// The facts tagged with a call at the root, kept as the untagged facts they come from. A
/// tagged fact is an untagged fact at the root moved to another label, with the call's site as
/// its tag: everything else about it — context, internal flag, write flag, the accesses behind
/// it — is its source's. Every untagged fact at the root of one component moves through the
/// same calls (the results a component reaches depend on its labels only), so the sources are
/// kept by component: a copy is the root facts of a few components, and copies made by many
/// calls (an allocator called from a thousand places) are mostly the same few groups.
#[derive(Clone, Debug, Default)]
pub struct Tagged {
    /// For each generic result component reached at the root: `(site, source component)`, sorted.
    seeds: FxHashMap<Rho, Vec<(Site, Rho)>>,
    /// For each component checked at the root: the generic result components reaching it.
    sources: FxHashMap<Rho, Vec<Rho>>,
}

impl Tagged {
    /// Whether some tagged fact is at component `comp`.
    pub fn reaches(&self, comp: Rho) -> bool {
        self.sources.contains_key(&comp)
    }

    /// Every component at the root whose facts some copy is made of.
    pub fn sources(&self) -> impl Iterator<Item = Rho> + '_ {
        self.seeds.values().flatten().map(|&(_, source)| source)
    }

    /// The tagged facts at component `comp`, one group per copy (the facts tagged with one
    /// call), each group as the components at the root whose untagged facts it is made of
    /// (sorted); each distinct group once, in ascending order. The check's verdict on a copy
    /// depends only on its facts, so copies with the same sources are checked once.
    pub fn copies(&self, comp: Rho) -> Vec<Vec<Rho>> {
        // One sort of all the pairs: an allocator called from every module has a site per
        // call, and a tree keyed by site cost a miss per pair.
        let mut pairs: Vec<(Site, Rho)> = Vec::new();
        for generic in self.sources.get(&comp).map(Vec::as_slice).unwrap_or(&[]) {
            pairs.extend_from_slice(&self.seeds[generic]);
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut groups: Vec<Vec<Rho>> = pairs
            .chunk_by(|a, b| a.0 == b.0)
            .map(|run| run.iter().map(|&(_, source)| source).collect())
            .collect();
        groups.sort_unstable();
        groups.dedup();
        groups
    }
}

/// The members of a large component grouped by scope and home, indexed so that
/// [`Prop::translated_large`] counts the groups a site leaves as they are without visiting
/// each: a component conflating the `void*` arguments of a thousand callbacks has a thousand
/// groups and is translated at each of their call sites.
struct MemberGroups {
    /// How many members each (scope, home) has.
    count: FxHashMap<(Scope, Option<FnId>), usize>,
    /// The pre-order number of each group's scope, sorted: the groups within a scope are a
    /// range. Empty when the scope tree has no pre-order numbers ([`MemberGroups::scopes`]
    /// then serves).
    entries: Vec<u32>,
    /// Each group's scope.
    scopes: Vec<Scope>,
    /// The scopes of the groups of each home.
    by_home: FxHashMap<Option<FnId>, Vec<Scope>>,
}

impl MemberGroups {
    fn new(members: &[Rho], c: &Constraints, homes: &Homes, scopes: &ScopeTree) -> MemberGroups {
        let mut count: FxHashMap<(Scope, Option<FnId>), usize> = FxHashMap::default();
        for &m in members {
            *count
                .entry((c.rhos[m].scope, homes.home_of(m)))
                .or_default() += 1;
        }
        let mut keys: Vec<(Scope, Option<FnId>)> = count.keys().copied().collect();
        keys.sort_unstable();
        let mut by_home: FxHashMap<Option<FnId>, Vec<Scope>> = FxHashMap::default();
        for &(scope, home) in &keys {
            by_home.entry(home).or_default().push(scope);
        }
        let scopes_of: Vec<Scope> = keys.iter().map(|&(scope, _)| scope).collect();
        let mut entries: Vec<u32> = Vec::with_capacity(keys.len());
        for &scope in &scopes_of {
            match scopes.interval(scope) {
                Some((entry, _)) => entries.push(entry),
                None => {
                    entries.clear();
                    break;
                }
            }
        }
        entries.sort_unstable();
        MemberGroups {
            count,
            entries,
            scopes: scopes_of,
            by_home,
        }
    }

    /// How many groups have their scope within `binder`.
    fn within(&self, binder: Scope, scopes: &ScopeTree) -> usize {
        match scopes.interval(binder) {
            Some((a, b)) if self.entries.len() == self.scopes.len() => {
                self.entries.partition_point(|&x| x <= b) - self.entries.partition_point(|&x| x < a)
            }
            _ => self
                .scopes
                .iter()
                .filter(|&&s| scopes.within(s, binder))
                .count(),
        }
    }
}

/// The components a fact reaches in a caller, each with whether it is an internal copy.
type Images = Rc<[(Rho, bool)]>;

/// Components with more members than this are translated by [`Prop::translated_large`].
const LARGE_COMPONENT: usize = 64;

/// What a context becomes through one edge, once known: a context's id, or [`EdgeMemo::NONE`]
/// (the call is unreachable, or starts no thread of the context's own).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct EdgeMemo(u32);

impl EdgeMemo {
    const UNKNOWN: EdgeMemo = EdgeMemo(u32::MAX);
    const NONE: EdgeMemo = EdgeMemo(u32::MAX - 1);
}

/// Which edge a context crosses: the `k`-th call of its function, or the `k`-th fork of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Edge {
    Call(u32),
    Fork(u32),
}

struct Prop<'a> {
    stats: &'a Stats,
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
    /// Per function: whether anything reads where in it a fact of another thread was reached
    /// ([`points_read`]).
    points_read: IndexVec<FnId, bool>,
    /// The sets and nests contexts name, and their translation.
    cx: Contexts,
    ctxs: IndexVec<CtxId, FactCtx>,
    /// Per function, the id of each of its contexts. A table per function: a context is looked
    /// up in its function's table as the work list walks up the callers, and most functions'
    /// tables stay in the cache, where one table of every context (forks at 1M lines: 3.7M)
    /// missed it at each lookup.
    ctx_index: IndexVec<FnId, FxHashMap<FactCtx, CtxId>>,
    /// The contexts seen from each function, in the order they were made.
    by_func: IndexVec<FnId, Vec<CtxId>>,
    /// Each context's facts so far, but the invariant ones it was reached by.
    maps: IndexVec<CtxId, Carried>,
    /// The facts each context last sent through its calls and forks.
    sent: IndexVec<CtxId, Carried>,
    /// Facts that reached a context since it was last visited.
    pending: IndexVec<CtxId, Vec<Carried>>,
    /// The invariant locations made in each context: its own accesses'.
    own_invariant: IndexVec<CtxId, LocsId>,
    /// The invariant locations that images into a context made ([`Prop::feed`]), by context:
    /// merged once, when they are gathered. Merged as each image came, a dispatcher calling
    /// each of a thousand callees through a pointer made a map for every prefix of their
    /// locations.
    fed_invariant: Vec<(CtxId, LocsId)>,
    /// The edges `(context, caller's context)` through which invariant locations were carried.
    invariant_edges: Vec<(CtxId, CtxId)>,
    /// Every invariant location of each context, once propagation ends: the index of the
    /// list of parts in `gathered` whose union they are ([`Prop::gather_invariant`]).
    invariant: IndexVec<CtxId, u32>,
    /// The lists of parts of [`Prop::invariant`], each sorted, at most [`GATHERED_PARTS`]
    /// long; the first is empty.
    gathered: Vec<Box<[LocsId]>>,
    /// Per component representative: from which functions up a location there is invariant,
    /// if from any ([`invariant_components`], [`Prop::invariant`]).
    invariant_comps: Vec<Option<Rank>>,
    /// At the functions the check reads, once propagation ends, each context's facts as the
    /// check reads them ([`Prop::held_where_checked`]); elsewhere empty.
    read: IndexVec<CtxId, LocsId>,
    /// What the check reads at each function ([`Prop::held_where_checked`]).
    reads: Reads,
    /// [`Prop::split`], memoised by the map and how many of its [`Prop::rank_cuts`] the rank
    /// of the function it is split at has passed.
    split_memo: FxHashMap<(LocsId, u32), Parts>,
    /// Per map, once split: the ranks past [`Rank::EVERYWHERE`] from which some of its
    /// locations are invariant, sorted. Between two of them every rank splits the map alike,
    /// and most maps have none, so a map that reaches callers of many ranks is split once.
    rank_cuts: FxHashMap<LocsId, Box<[Rank]>>,
    locs: LocMaps,
    /// Per component representative: whether facts there can lead to a checked label
    /// ([`useful_components`]); no fact is made elsewhere.
    useful: Vec<bool>,
    /// The context each context becomes through each of its calls, then each of its forks
    /// ([`EdgeMemo`]), made when the context is first sent: a context is sent again only when
    /// its map grew, and a table by (context, edge) was mostly entries never read again.
    edge_memo: IndexVec<CtxId, Box<[EdgeMemo]>>,
    /// The image of a map through a call or fork site into the callee's caller, closed under
    /// flow ([`Prop::image`]).
    /// A table per site: an image is computed one site at a time, and a table of every site's
    /// images (sshfs: 164,514) missed the cache at each of its lookups (1.35 million).
    image_memo: IndexVec<Site, FxHashMap<(LocsId, FnId), LocsId>>,
    /// Each map closed under flow ([`Prop::close`]).
    close_memo: FxHashMap<LocsId, LocsId>,
    /// Per component representative: whether every member is a label of the root scope that
    /// belongs to no function's run and has no image at any site, so that every call and fork
    /// leaves a fact there where it is ([`staying_components`]).
    fixed: Vec<bool>,
    /// Per component representative: whether some member is a label every call and fork
    /// leaves where it is, so that a fact there is still there, with the same internal flag,
    /// in every caller ([`staying_components`]).
    sticky: Vec<bool>,
    /// Per component representative: whether a fact moving to it from a sticky component is
    /// left to [`Prop::expose`] and to the check ([`deferred_components`]), and if so the
    /// scope of its labels.
    deferred: Vec<Option<Scope>>,
    /// Per sticky component with deferred predecessors: the deferred components whose facts
    /// it carries ([`deferred_carried`]), sorted.
    carried: FxHashMap<Rho, Vec<Rho>>,
    /// Per sticky component that carries deferred components outside the root scope: those,
    /// with the pre-order number of their scope, sorted by it, so that [`Prop::expose`] finds
    /// those a site translates in a few steps, not by visiting every object a blob is made of.
    deferred_scopes: FxHashMap<Rho, Vec<(u32, Rho)>>,
    /// Per sticky component with deferred predecessors: its other predecessors, the moves
    /// [`Prop::close`] makes from it.
    walk_preds: FxHashMap<Rho, Vec<Rho>>,
    /// Per deferred component: the sticky components that carry it, whose facts are its own
    /// (sorted).
    deferred_into: FxHashMap<Rho, Vec<Rho>>,
    /// Which components a site leaves where they are, known without translating them.
    unmoved: Unmoved,
    /// [`Prop::partition`], memoised, with `partition_locs` locations in all.
    partition_memo: FxHashMap<(LocsId, Scope, FnId), Rc<Partition>>,
    partition_locs: usize,
    /// Per map: whether all its locations are fixed ([`Prop::all_fixed`]), once asked.
    map_fixed: Vec<Option<bool>>,
    /// Per map: whether some location has deferred predecessors, so that [`Prop::expose`] may
    /// have moves to make, once asked. Most maps have none, and asking each location at every
    /// image was a hash lookup per location (sshfs: 15 million).
    map_exposes: Vec<Option<bool>>,
    /// Per component, site and callee: the components a fact of the callee reaches in the caller
    /// through the site, each with whether it is an internal copy ([`Prop::translated`]).
    /// A table per site, as for `image_memo`, with `translated_count` entries in all.
    translated_memo: IndexVec<Site, FxHashMap<(Rho, FnId), Images>>,
    translated_count: usize,
    /// [`Prop::translate_set`] and [`Prop::translate_released`], memoised.
    set_memo: SetTranslations,
    /// [`Prop::held_stays`], memoised.
    held_fixed: FxHashMap<SetId, bool>,
    /// Per component at the root: the generic result labels' components of its members, with
    /// the site ([`Prop::results`]).
    results_memo: FxHashMap<Rho, Vec<(Site, Rho)>>,
    /// The members of each large component grouped by scope and home.
    groups: FxHashMap<Rho, MemberGroups>,
    /// Per function: whether some call chain above it, up to its thread's start, makes a call
    /// holding a lock ([`Locksets::lock_holding_callers`]). Where none does, the released
    /// set of the function's own thread is left out of its contexts.
    gains_locks: IndexVec<FnId, bool>,
    /// The lock states contexts have taken ([`Prop::widen`]): the held sets of each context
    /// but its locks, and the released sets of each context but its released set.
    widening: (Widening<FactCtx, 1>, Widening<FactCtx, 1>),
}

impl Prop<'_> {
    /// The tables of the deferred moves ([`deferred_components`]): what each sticky component
    /// carries, by scope, the moves [`Prop::close`] still makes from it, and the carriers of
    /// each deferred component.
    fn set_up_deferral(&mut self) {
        // Each sticky component a chain reaches carries all of it: a chain that many sticky
        // components reach would be carried by each. Past a bound linear in the flow graph,
        // only leaves are deferred (what is deferred changes no fact, only how maps hold them).
        let edges: usize = self.comps.preds.iter().map(Vec::len).sum();
        let limit = CARRIED_PER_EDGE * edges + CARRIED_MIN;
        if let Some(carried) = deferred_carried(self.comps, &self.sticky, &self.deferred, limit) {
            self.carried = carried;
        } else {
            self.stats.count("facts: chains left explicit", 1);
            let (c, comps, index, homes, scopes) =
                (self.c, self.comps, self.index, self.homes, self.scopes);
            self.deferred = deferred_components(
                c,
                comps,
                index,
                homes,
                scopes,
                &self.useful,
                Chains::Explicit,
            );
            // Leaves are carried by the sticky components they flow into, one per edge.
            self.carried = deferred_carried(self.comps, &self.sticky, &self.deferred, usize::MAX)
                .unwrap_or_default();
        }
        self.deferred_scopes = deferred_scopes(&self.carried, self.scopes, &self.deferred);
        for (x, preds) in self.comps.preds.iter_enumerated() {
            if !self.sticky[x.0 as usize] {
                continue;
            }
            let others: Vec<Rho> = (preds.iter())
                .filter(|p| self.deferred[p.0 as usize].is_none())
                .copied()
                .collect();
            if others.len() < preds.len() {
                self.walk_preds.insert(x, others);
            }
        }
        let mut carriers: Vec<(Rho, Rho)> = (self.carried.iter())
            .flat_map(|(&x, carried)| carried.iter().map(move |&p| (p, x)))
            .collect();
        // Each list sorted.
        carriers.sort_unstable();
        for (p, x) in carriers {
            self.deferred_into.entry(p).or_default().push(x);
        }
    }

    /// Each access is a fact of its own function: its context there, and its location, in
    /// its context's pending facts (its invariant locations in the context's own).
    fn seed(&mut self, phases: &IndexVec<AccessId, Phase>) {
        let mut seeds: BTreeMap<CtxId, Vec<Loc>> = BTreeMap::new();
        for (f, body) in self.p.funcs.iter_enumerated() {
            for (b, block) in body.blocks.iter().enumerate() {
                for (k, e) in block.events.iter().enumerate() {
                    let Event::Access(a) = *e else { continue };
                    let state = self.state_at(f, b as u32, k as u32);
                    let Some(held) = state.held else { continue };
                    let info = self.p.accesses[a];
                    let rho = self.comps.of[info.rho];
                    if !self.useful[rho.0 as usize] {
                        continue;
                    }
                    let held = match info.opened {
                        Some((l, mode)) => {
                            let l = self.locks.find(l);
                            self.ls.sets.insert(held, l, mode)
                        }
                        None => held,
                    };
                    let ctx = FactCtx {
                        func: f,
                        held: LockSets::EMPTY,
                        released: state.released,
                        ctx: self.cx.own(
                            self.mhp.point(f, b as u32, k as u32),
                            self.mhp.joined_at(f, b as u32, k as u32),
                            phases[a],
                        ),
                    };
                    let ctx = self.context(ctx);
                    let accesses = self.locs.access_set(vec![a]);
                    seeds.entry(ctx).or_default().push(Loc {
                        rho,
                        held,
                        internal: info.own_copy,
                        writes: info.write,
                        accesses,
                    });
                }
            }
        }
        for (ctx, own) in seeds {
            let map = self.locs.intern(own);
            let map = self.close(map);
            let parts = self.split(map, self.ctxs[ctx].func);
            self.own_invariant[ctx] = parts.invariant;
            self.pending[ctx].push(Carried {
                moving: parts.moving,
                invariant: parts.invariant != LocMaps::EMPTY,
            });
        }
    }

    /// Records the sizes of what propagation made in the developer's statistics.
    fn record_counts(&self) {
        let stats = self.stats;
        if !stats.enabled() {
            return;
        }
        // A location two parts of a context hold is counted twice.
        let facts: usize = (self.maps.iter().zip(self.invariant.iter()))
            .map(|(m, &i)| {
                let parts = self.gathered[i as usize].iter();
                parts.map(|&part| self.locs.get(part).len()).sum::<usize>()
                    + self.locs.get(m.moving).len()
            })
            .sum();
        stats.count("facts", facts);
        stats.count("fact contexts", self.ctxs.len());
        stats.count(
            "facts: contexts widened",
            self.widening.0.widened + self.widening.1.widened,
        );
        stats.count(
            "facts: most held sets kept for one context key",
            self.widening.0.most as usize,
        );
        stats.count(
            "facts: most released sets kept for one context key",
            self.widening.1.most as usize,
        );
        let (maps, access_sets, entries) = self.locs.sizes();
        stats.count("facts: location maps", maps);
        stats.count("facts: locations in maps", entries);
        stats.count("facts: access sets", access_sets);
        stats.count(
            "facts: accesses in access sets",
            self.locs.accesses_in_sets(),
        );
        stats.count(
            "facts: images memoised",
            self.image_memo.iter().map(FxHashMap::len).sum::<usize>(),
        );
        stats.count("facts: map splits memoised", self.partition_memo.len());
        stats.count("facts: invariant splits memoised", self.split_memo.len());
        stats.count("facts: set translations memoised", self.set_memo.len());
        let (sets, pairs) = self.ls.sets.sizes();
        stats.count("facts: lock sets", sets);
        stats.count("facts: lock-set unions and differences memoised", pairs);
    }

    /// The context `ctx`, interned; a new one whose lock state is past the bounds of
    /// [`Prop::widen`] takes the join of the states its like have taken instead.
    fn context(&mut self, mut ctx: FactCtx) -> CtxId {
        // What the function's own thread released matters only to a caller holding the lock:
        // with none on any chain above, every released set gives the same facts there.
        if ctx.ctx.thread == Thread::Current && !self.gains_locks[ctx.func] {
            ctx.released = LockSets::EMPTY;
        }
        if let Some(&id) = self.ctx_index[ctx.func].get(&ctx) {
            return id;
        }
        let ctx = self.widen(ctx);
        self.interned(ctx)
    }

    /// [`Prop::held_in_contexts`] at every function where the check reads facts, keeping there
    /// the components it reads ([`Reads`]): at `main` all of them (the copies at the root are
    /// made of them).
    fn held_where_checked(&mut self) {
        let Some(main) = self.p.main else { return };
        let mut checked: Vec<Rho> = self.p.checked.to_vec();
        checked.sort();
        checked.dedup();
        self.reads = Reads::new(&checked, self.comps, self.homes, main, &self.deferred_into);
        self.read = IndexVec::from_elem_n(LocMaps::EMPTY, self.ctxs.len());
        for f in self.homes.checked_at(&checked, main) {
            let read = self.reads.at(f);
            self.held_in_contexts(f, read.as_ref());
        }
    }

    /// Moves the locks of the locations of `f`'s contexts into the contexts, where the check
    /// reads them: a context holding `held` whose map has locations holding `h` and `h'`
    /// becomes the contexts holding `held ∪ h` and `held ∪ h'`, each with its locations (those
    /// of the components `read`, sorted, or all of them), in one map ([`Prop::read`]). Only
    /// the functions the check reads are so expanded ([`Homes::checked_at`]); everywhere else a
    /// location's locks stay in the map, so that the contexts of a function do not multiply by
    /// the lock sets of every access below it.
    fn held_in_contexts(&mut self, f: FnId, read: Option<&Vec<Rho>>) {
        let mut expanded: BTreeMap<CtxId, Vec<LocsId>> = BTreeMap::new();
        for ctx in std::mem::take(&mut self.by_func[f]) {
            let outer = self.ctxs[ctx];
            let (list, moving) = (self.invariant[ctx] as usize, self.maps[ctx].moving);
            let locs = self.locations_read(&self.gathered[list], moving, read);
            // Most maps hold no location with locks of its own: the context keeps its map.
            if locs.iter().all(|l| l.held == LockSets::EMPTY) {
                let flat = match read {
                    None => self.locs.union_all(moving, &self.gathered[list]),
                    Some(_) => self.locs.intern(locs),
                };
                expanded.entry(ctx).or_default().push(flat);
                continue;
            }
            let mut by_held: BTreeMap<SetId, Vec<Loc>> = BTreeMap::new();
            for loc in locs {
                let own = Loc {
                    held: LockSets::EMPTY,
                    ..loc
                };
                by_held.entry(loc.held).or_default().push(own);
            }
            for (held, locs) in by_held {
                let held = self.ls.sets.union(outer.held, held);
                let id = self.interned(FactCtx { held, ..outer });
                let part = self.locs.intern(locs);
                expanded.entry(id).or_default().push(part);
            }
        }
        self.by_func[f].clear();
        for (id, parts) in expanded {
            self.read.ensure(id, LocMaps::EMPTY);
            self.read[id] = self.locs.union_all(LocMaps::EMPTY, &parts);
            self.by_func[f].push(id);
        }
    }

    /// The locations of a context's invariant `parts` and `moving` map on the components
    /// `read` (sorted), or all of them: those of each invariant part found by component, which
    /// is the first part of their key, rather than visited one by one (each of an
    /// interpreter's functions shares one part holding every module's locations, and reads
    /// one or two of them). A location two parts hold is listed twice, with each part's
    /// accesses: interning the list merges them.
    fn locations_read(
        &self,
        parts: &[LocsId],
        moving: LocsId,
        read: Option<&Vec<Rho>>,
    ) -> Vec<Loc> {
        let moving = self.locs.get(moving);
        let Some(read) = read else {
            let invariant = parts.iter().flat_map(|&part| self.locs.get(part));
            return invariant.chain(moving).copied().collect();
        };
        let mut out: Vec<Loc> = Vec::new();
        for &part in parts {
            let invariant = self.locs.get(part);
            for &x in read {
                let from = invariant.partition_point(|l| l.rho < x);
                let to = invariant.partition_point(|l| l.rho <= x);
                out.extend_from_slice(&invariant[from..to]);
            }
        }
        out.extend(moving.iter().filter(|l| read.binary_search(&l.rho).is_ok()));
        out
    }

    /// The context `ctx` as it is, interned.
    fn interned(&mut self, ctx: FactCtx) -> CtxId {
        if let Some(&id) = self.ctx_index[ctx.func].get(&ctx) {
            return id;
        }
        let id = self.ctxs.push(ctx);
        self.ctx_index[ctx.func].insert(ctx, id);
        self.by_func[ctx.func].push(id);
        self.maps.push(Carried::EMPTY);
        self.sent.push(Carried::EMPTY);
        self.own_invariant.push(LocMaps::EMPTY);
        self.pending.push(Vec::new());
        self.edge_memo.push(Box::new([]));
        id
    }

    fn state_at(&self, f: FnId, block: u32, index: u32) -> State {
        self.ls.state_before(f, block, index)
    }

    /// The lock state a new context takes ([`widen`]): a held set new to the context's key past
    /// [`widen::VARIANTS`] of them is the intersection of the key's held sets, then a released
    /// set new to the context (with that held set) past [`widen::RELEASED_VARIANTS`] of them
    /// is the union of its released sets.
    fn widen(&mut self, ctx: FactCtx) -> FactCtx {
        let sets = &mut self.ls.sets;
        let (held_states, released_states) = &mut self.widening;
        let mut with_held = FactCtx {
            released: LockSets::EMPTY,
            ..ctx
        };
        if !released_states.knows(&with_held) {
            let key = FactCtx {
                held: LockSets::EMPTY,
                ..with_held
            };
            [with_held.held] = held_states.state(key, [ctx.held], sets);
        }
        let [released] = released_states.state(with_held, [ctx.released], sets);
        FactCtx {
            released,
            ..with_held
        }
    }

    /// A callee's lockset as seen by the caller at `site`. A linear lock of the callee may have
    /// a non-linear image (two objects' locks meet in the caller), which never counts as held.
    fn translate_set(&mut self, set: SetId, site: Site) -> SetId {
        let (c, scopes, linearity) = (self.c, self.scopes, self.linearity);
        let image = |locks: &mut LockTable, l| match translate(c, scopes, locks, site, l) {
            Some(x) if linearity.is_linear(locks, x) => Image::Lock(x),
            _ => Image::Dropped,
        };
        (self.set_memo).translate(&mut self.ls.sets, self.locks, set, site, true, image)
    }

    /// A released set as a caller sees it: translated through `site` (a lock local to the
    /// callee means nothing there), or every lock if one of them is a lock that stands for no
    /// lock the program made (`Linearity::is_ungrounded`).
    fn translate_released(&mut self, set: SetId, site: Site) -> SetId {
        let (c, scopes, linearity) = (self.c, self.scopes, self.linearity);
        let image = |locks: &mut LockTable, l| match translate(c, scopes, locks, site, l) {
            None => Image::Dropped,
            Some(x) if linearity.is_ungrounded(locks, x) => Image::Every,
            Some(x) => Image::Lock(x),
        };
        (self.set_memo).translate(&mut self.ls.sets, self.locks, set, site, false, image)
    }

    /// Propagates the maps of every context up every call chain: the functions callees and
    /// thread functions first, each component of calls and forks until its maps stop growing.
    fn run(&mut self) {
        let s = self.s;
        let total = s.thread_sccs.len();
        for (done, scc) in s.thread_sccs.iter().enumerate() {
            if done % 64 == 0 {
                self.stats.progress(done, total);
            }
            loop {
                crate::budget::poll();
                let mut progress = false;
                for &f in scc {
                    // Contexts made while visiting (a recursive call's) are visited too.
                    let mut k = 0;
                    while k < self.by_func[f].len() {
                        let ctx = self.by_func[f][k];
                        k += 1;
                        if self.pending[ctx].is_empty() && self.maps[ctx] == self.sent[ctx] {
                            continue;
                        }
                        progress = true;
                        self.settle(ctx);
                        if self.maps[ctx] != self.sent[ctx] {
                            self.sent[ctx] = self.maps[ctx];
                            self.send(ctx);
                        }
                    }
                }
                if !progress {
                    break;
                }
            }
        }
    }

    /// Adds the maps that reached `ctx` to its own. Each is closed under flow, and so is their
    /// union.
    fn settle(&mut self, ctx: CtxId) {
        let pending = std::mem::take(&mut self.pending[ctx]);
        let moving: Vec<LocsId> = pending.iter().map(|m| m.moving).collect();
        let old = self.maps[ctx];
        self.maps[ctx] = Carried {
            moving: self.locs.union_all(old.moving, &moving),
            invariant: old.invariant || pending.iter().any(|m| m.invariant),
        };
    }

    /// Sends `ctx`'s map through every call and fork of its function.
    fn send(&mut self, ctx: CtxId) {
        let (s, main) = (self.s, self.p.main);
        let f = self.ctxs[ctx];
        // At the root, facts stay: from a call's result back into the function that made it
        // they are tagged with the call ([`Prop::tagged`], once every root fact is known).
        if Some(f.func) == main {
            return;
        }
        // Through every call of the fact's function: the caller's view; a thread the call
        // never starts ([`ThreadProgram::untaken_forks`]) has no facts there.
        for (k, pt) in s.callers[f.func].iter().enumerate() {
            if let Thread::Forked(fork) = f.ctx.thread {
                if self.untaken.contains(&(pt.site, fork)) {
                    continue;
                }
            }
            let Some(up) = self.through(ctx, Edge::Call(k as u32)) else {
                continue;
            };
            self.feed(ctx, up, pt.site);
        }
        // Through every fork of the fact's function: the child thread starts with no locks.
        for (k, pt) in s.forkers[f.func].iter().enumerate() {
            let Some(up) = self.through(ctx, Edge::Fork(k as u32)) else {
                continue;
            };
            self.feed(ctx, up, pt.site);
        }
    }

    /// The context `ctx` becomes in the caller or forker at `edge`, memoised.
    fn through(&mut self, ctx: CtxId, edge: Edge) -> Option<CtxId> {
        let f = self.ctxs[ctx];
        let slot = match edge {
            Edge::Call(k) => k as usize,
            Edge::Fork(k) => self.s.callers[f.func].len() + k as usize,
        };
        if self.edge_memo[ctx].is_empty() {
            let edges = self.s.callers[f.func].len() + self.s.forkers[f.func].len();
            self.edge_memo[ctx] = vec![EdgeMemo::UNKNOWN; edges].into();
        }
        match self.edge_memo[ctx][slot] {
            EdgeMemo::UNKNOWN => {}
            EdgeMemo::NONE => return None,
            EdgeMemo(up) => return Some(CtxId(up)),
        }
        let up = match edge {
            Edge::Call(k) => {
                let pt = self.s.callers[f.func][k as usize];
                self.through_call(&f, &pt)
            }
            Edge::Fork(k) => {
                let pt = self.s.forkers[f.func][k as usize];
                Some(self.through_fork(&f, &pt))
            }
        }
        .map(|up| self.context(up));
        self.edge_memo[ctx][slot] = up.map_or(EdgeMemo::NONE, |up| EdgeMemo(up.0));
        up
    }

    /// What a fact's context becomes in the caller at `pt` ([`Contexts::through_call`]), with
    /// its locks: `held' = φ(held) ∪ (caller's held − φ(released))` for the function's own
    /// thread, `φ(held)` for another; `None` where the call is unreachable.
    fn through_call(&mut self, f: &FactCtx, pt: &CallPoint) -> Option<FactCtx> {
        let state = self.state_at(pt.caller, pt.block, pt.index);
        let caller_held = state.held?;
        let held = self.translate_set(f.held, pt.site);
        let (held, released) = if f.ctx.thread == Thread::Current {
            let released = self.translate_released(f.released, pt.site);
            let kept = self.ls.sets.minus(caller_held, released);
            let held = self.ls.sets.union(held, kept);
            // A lock some location holds besides may stay in the released set: the caller's
            // callers add it to that location's locks either way.
            let rel_kept = self.ls.sets.minus(state.released, held);
            (held, self.ls.sets.union(rel_kept, released))
        } else {
            (held, LockSets::EMPTY)
        };
        let mut ctx = self.cx.through_call(self.mhp, f.func, &f.ctx, pt);
        if matches!(ctx.thread, Thread::Forked(_)) && !self.points_read[pt.caller] {
            ctx.point = NO_POINT;
        }
        Some(FactCtx {
            func: pt.caller,
            held,
            released,
            ctx,
        })
    }

    /// What a fact's context becomes through the fork at `pt` ([`Contexts::through_fork`]):
    /// the child thread's, with none of the parent's locks.
    fn through_fork(&mut self, f: &FactCtx, pt: &CallPoint) -> FactCtx {
        FactCtx {
            func: pt.caller,
            held: self.translate_set(f.held, pt.site),
            released: LockSets::EMPTY,
            ctx: self.cx.through_fork(self.mhp, self.s, f.func, &f.ctx, pt),
        }
    }

    /// The facts of `map`, of function `callee`, as the caller at `site` sees them: each
    /// location by its images ([`Prop::translated`]), an internal copy where it has none, then
    /// closed under flow. Locations no fact can lead from to a checked label are left out.
    fn image(&mut self, map: LocsId, site: Site, callee: FnId) -> LocsId {
        if self.all_fixed(map) {
            return map;
        }
        if let Some(&out) = self.image_memo[site].get(&(map, callee)) {
            return out;
        }
        let part = self.partition(map, site, callee);
        let mut moved: Vec<Loc> = Vec::new();
        for loc in &part.movers {
            let held = self.translate_set(loc.held, site);
            for &(rho, internal) in self.translated(loc.rho, site, callee).iter() {
                if self.useful[rho.0 as usize] {
                    moved.push(Loc {
                        rho,
                        held,
                        internal: loc.internal || internal,
                        ..*loc
                    });
                }
            }
        }
        // A map the site leaves whole is its own image.
        let out = if part.movers.is_empty() {
            part.exposed
        } else {
            self.locs.intern_into(&part.staying, moved)
        };
        let out = self.close(out);
        self.image_memo[site].insert((map, callee), out);
        out
    }

    /// Sends the facts of `ctx` to `up`, the context it becomes in the caller or forker at
    /// `site`: the moving locations by their image ([`Prop::image`]), some of which may be
    /// invariant there, and whether it has invariant locations, which go with the edge
    /// ([`Prop::gather_invariant`]). The image of the invariant locations is themselves, and
    /// their closure under flow adds none that moves ([`invariant_components`]), so the facts
    /// of `up` are the same as if the whole map were translated.
    fn feed(&mut self, ctx: CtxId, up: CtxId, site: Site) {
        let (map, callee) = (self.maps[ctx], self.ctxs[ctx].func);
        let image = self.image(map.moving, site, callee);
        let parts = self.split(image, self.ctxs[up].func);
        if parts.invariant != LocMaps::EMPTY {
            self.fed_invariant.push((up, parts.invariant));
        }
        if map.invariant {
            self.invariant_edges.push((ctx, up));
        }
        let carried = Carried {
            moving: parts.moving,
            invariant: map.invariant || parts.invariant != LocMaps::EMPTY,
        };
        if carried != Carried::EMPTY {
            self.pending[up].push(carried);
        }
    }

    /// Every invariant location of each context, once the contexts and the edges between them
    /// are known: those made in it and in every context with a path to it along the edges
    /// that carried invariant locations. A component of contexts that reach one another (a
    /// cycle of calls) gets one list of parts, made once, and the components are visited the
    /// contexts they come from first, so each list is its members' own parts and their
    /// predecessors' lists. (The components of the context graph, by petgraph's Kosaraju.)
    ///
    /// The parts stay apart, up to [`GATHERED_PARTS`] of them, so that the contexts below one
    /// that many reach share its part: merged into one map per context, a pager's context
    /// holding every module's I/O method's locations was copied into each module's context
    /// above it, with the module's own counter (800 modules: 4 million locations in maps).
    /// Past that many parts, the largest [`GATHERED_KEPT`] stay apart and the others are
    /// merged ([`Prop::fewer_parts`]).
    fn gather_invariant(&mut self) {
        let n = self.ctxs.len();
        let mut edges = std::mem::take(&mut self.invariant_edges);
        edges.sort_unstable_by_key(|&(from, to)| (to, from));
        edges.dedup();
        let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(n, edges.len());
        for _ in 0..n {
            graph.add_node(());
        }
        for &(from, to) in &edges {
            graph.add_edge(NodeIndex::new(from.index()), NodeIndex::new(to.index()), ());
        }
        let mut fed = std::mem::take(&mut self.fed_invariant);
        fed.sort_unstable();
        fed.dedup();
        self.invariant = IndexVec::from_elem_n(0, n);
        self.gathered = vec![Box::default()];
        let mut lists: FxHashMap<Box<[LocsId]>, u32> = FxHashMap::default();
        lists.insert(Box::default(), 0);
        // Kosaraju's walks use stacks of their own (a chain of contexts as deep as the program's
        // calls does not recurse), and list the components targets first.
        for members in petgraph::algo::kosaraju_scc(&graph).iter().rev() {
            let mut parts: Vec<LocsId> = Vec::new();
            for node in members {
                let ctx = CtxId::new(node.index());
                parts.push(self.own_invariant[ctx]);
                let from = fed.partition_point(|&(at, _)| at < ctx);
                let to = fed.partition_point(|&(at, _)| at <= ctx);
                parts.extend(fed[from..to].iter().map(|&(_, part)| part));
                let from = edges.partition_point(|&(_, to)| to < ctx);
                let to = edges.partition_point(|&(_, to)| to <= ctx);
                for &(pred, _) in &edges[from..to] {
                    parts.extend_from_slice(&self.gathered[self.invariant[pred] as usize]);
                }
            }
            parts.retain(|&part| part != LocMaps::EMPTY);
            parts.sort_unstable();
            parts.dedup();
            if parts.len() > GATHERED_PARTS {
                parts = self.fewer_parts(parts);
            }
            // A context that only passes on a predecessor's list shares it.
            let next = u32::try_from(self.gathered.len()).expect("fewer than 2^32 lists");
            let parts = parts.into_boxed_slice();
            let list = *lists.entry(parts.clone()).or_insert_with(|| {
                self.gathered.push(parts);
                next
            });
            for node in members {
                self.invariant[CtxId::new(node.index())] = list;
            }
        }
    }

    /// `parts` (sorted, more than [`GATHERED_PARTS`]) as fewer: the [`GATHERED_KEPT`] largest
    /// apart, the others merged into one map.
    fn fewer_parts(&mut self, mut parts: Vec<LocsId>) -> Vec<LocsId> {
        let locs = &self.locs;
        parts.sort_by_key(|&part| (std::cmp::Reverse(locs.get(part).len()), part));
        let rest = parts.split_off(GATHERED_KEPT);
        parts.push(self.locs.union_all(LocMaps::EMPTY, &rest));
        parts.sort_unstable();
        parts.dedup();
        parts
    }

    /// `map` in two parts ([`Parts`]): the [invariant](Prop::invariant) locations and the
    /// others. Which part a location is in depends on its key only, so the parts of two maps
    /// never share a key, and their union is `map`.
    fn split(&mut self, map: LocsId, at: FnId) -> Parts {
        let rank = Rank(self.s.thread_scc_of[at] as u32 + 1);
        let cuts = self.rank_cuts.entry(map).or_insert_with(|| {
            let mut cuts: Vec<Rank> = (self.locs.get(map).iter())
                .filter_map(|l| self.invariant_comps[l.rho.0 as usize])
                .filter(|&from| from != Rank::EVERYWHERE)
                .collect();
            cuts.sort_unstable();
            cuts.dedup();
            cuts.into()
        });
        let passed = cuts.partition_point(|&cut| cut <= rank) as u32;
        if let Some(&known) = self.split_memo.get(&(map, passed)) {
            return known;
        }
        let mut invariant: Vec<Loc> = Vec::new();
        let mut moving: Vec<Loc> = Vec::new();
        for k in 0..self.locs.get(map).len() {
            let l = self.locs.get(map)[k];
            if self.invariant(&l, rank) {
                invariant.push(l);
            } else {
                moving.push(l);
            }
        }
        // Both keep the map's order.
        let out = match (invariant.is_empty(), moving.is_empty()) {
            (true, _) => Parts {
                invariant: LocMaps::EMPTY,
                moving: map,
            },
            (false, true) => Parts {
                invariant: map,
                moving: LocMaps::EMPTY,
            },
            (false, false) => Parts {
                invariant: self.locs.intern_into(&invariant, Vec::new()),
                moving: self.locs.intern_into(&moving, Vec::new()),
            },
        };
        self.split_memo.insert((map, passed), out);
        out
    }

    /// Whether every call and fork above a function of rank `at` (callees and thread functions
    /// first, from 1, [`Structure::thread_scc_of`]) leaves the location `l` as it is, and its
    /// closure under flow adds only such locations: its component is invariant from a rank at
    /// most `at` ([`invariant_components`]; those of [`Rank::EVERYWHERE`] from every function)
    /// and its locks stay ([`Prop::held_stays`]). The functions above one of rank `at` all have
    /// a rank at least `at`, so what is invariant at a function is invariant at its callers.
    fn invariant(&mut self, l: &Loc, at: Rank) -> bool {
        self.invariant_comps[l.rho.0 as usize].is_some_and(|from| from <= at)
            && self.held_stays(l.held)
    }

    /// `map` exposed at the binder of `site` ([`Prop::expose`]), split into the locations every
    /// site of that binder into `callee` leaves where they are and the others, memoised by
    /// (map, binder, callee): which locations stay depends on the site only through its
    /// binder, and most maps cross many sites of one binder (sshfs: 164,514 images made of
    /// 6,309 such splits, 15.3 million locations visited for them).
    fn partition(&mut self, map: LocsId, site: Site, callee: FnId) -> Rc<Partition> {
        let binder = self.c.sites[site].binder;
        if let Some(part) = self.partition_memo.get(&(map, binder, callee)) {
            return part.clone();
        }
        let exposed = self.expose(map, binder);
        // The locations that stay keep their order.
        let mut staying: Vec<Loc> = Vec::new();
        let mut movers: Vec<Loc> = Vec::new();
        for k in 0..self.locs.get(exposed).len() {
            let loc = self.locs.get(exposed)[k];
            if !self.held_stays(loc.held) {
                movers.push(loc);
            } else if self.fixed[loc.rho.0 as usize] {
                staying.push(loc);
            } else if self
                .unmoved
                .stays(self.c, self.scopes, loc.rho, site, callee)
            {
                // The test answers exactly what translating would (checked on every fixture).
                debug_assert_eq!(
                    &*self.translated(loc.rho, site, callee),
                    &[(loc.rho, false)]
                );
                staying.push(loc);
            } else {
                movers.push(loc);
            }
        }
        let len = staying.len() + movers.len();
        let part = Rc::new(Partition {
            exposed,
            staying,
            movers,
        });
        if len < SPLIT_MIN {
            return part;
        }
        if self.partition_locs >= MEMO_CAP {
            self.partition_memo.clear();
            self.partition_locs = 0;
        }
        self.partition_locs += len;
        (self.partition_memo).insert((map, binder, callee), part.clone());
        part
    }

    /// Whether every location of `map` is [`fixed`](Prop::fixed): its image through any call
    /// or fork is itself (and, being closed under flow, so is its closure), and none has
    /// deferred predecessors that a site may translate ([`Prop::expose`]).
    fn all_fixed(&mut self, map: LocsId) -> bool {
        if let Some(Some(known)) = self.map_fixed.get(map.0 as usize) {
            return *known;
        }
        let mut all = true;
        for k in 0..self.locs.get(map).len() {
            let l = self.locs.get(map)[k];
            if !self.invariant(&l, Rank::EVERYWHERE) {
                all = false;
                break;
            }
        }
        remembered(&mut self.map_fixed, map, || all)
    }

    /// Whether every call and fork leaves the locks `held` of a location as they are: no site
    /// translates them ([`SetTranslations::invariant`]) and each is linear, so that
    /// [`Prop::translate_set`] keeps it.
    fn held_stays(&mut self, held: SetId) -> bool {
        if held == LockSets::EMPTY {
            return true;
        }
        if let Some(&known) = self.held_fixed.get(&held) {
            return known;
        }
        let (sets, locks, linearity) = (&mut self.ls.sets, &mut *self.locks, self.linearity);
        let stays = self.set_memo.invariant(sets, locks, held)
            && (sets.get(held).iter()).all(|h| linearity.is_linear(locks, h.lock));
        self.held_fixed.insert(held, stays);
        stays
    }

    /// Whether some location of `map` is a sticky component with deferred predecessors
    /// ([`Prop::walk_preds`]): without one, [`Prop::expose`] leaves `map` as it is at every
    /// site.
    fn exposes(&mut self, map: LocsId) -> bool {
        let (locs, walk_preds) = (&self.locs, &self.walk_preds);
        remembered(&mut self.map_exposes, map, || {
            (locs.get(map).iter()).any(|l| walk_preds.contains_key(&l.rho))
        })
    }

    /// Figure 8b, first rule: a fact moves backwards along flow and summary edges (within a
    /// component it is already everywhere), keeping its context, internal flag, write flag and
    /// the accesses behind it; a location reached from several gets all of theirs.
    ///
    /// The moves from a sticky component into a deferred one are left to [`Prop::expose`] and
    /// to the check: both stay where they are through every call and fork but those that
    /// translate the deferred one, so making them now, or at such a site, or when the facts
    /// have reached the function where they are checked gives the same facts there. A
    /// conflated `void *` blob that a thousand objects flow into is reached by most contexts;
    /// moving each of its facts to each object at every context made the facts grow as the
    /// square of the program (the `all` shape of the bench: 1.5 billion facts at 1M lines).
    fn close(&mut self, map: LocsId) -> LocsId {
        if let Some(&out) = self.close_memo.get(&map) {
            return out;
        }
        let out = self.walk(map);
        self.close_memo.insert(map, out);
        out
    }

    /// `map` with the deferred moves into components of scopes within `binder` made: before
    /// a call or fork whose site's binder is `binder` translates them (they are generic
    /// there). `map` itself when it has none.
    fn expose(&mut self, map: LocsId, binder: Scope) -> LocsId {
        if !self.exposes(map) {
            return map;
        }
        let scopes = self.scopes;
        let (a, b) = scopes.interval(binder).unwrap_or((0, u32::MAX));
        let mut out: Vec<Loc> = Vec::new();
        for loc in self.locs.get(map) {
            if binder == Scope::ROOT {
                // Every scope is within the root's (a call of `main`).
                for &pred in self.carried.get(&loc.rho).into_iter().flatten() {
                    out.push(Loc { rho: pred, ..*loc });
                }
                continue;
            }
            let Some(preds) = self.deferred_scopes.get(&loc.rho) else {
                continue;
            };
            let from = preds.partition_point(|&(entry, _)| entry < a);
            let to = preds.partition_point(|&(entry, _)| entry <= b);
            for &(_, pred) in &preds[from..to] {
                out.push(Loc { rho: pred, ..*loc });
            }
        }
        if out.is_empty() {
            return map;
        }
        out.extend_from_slice(self.locs.get(map));
        self.locs.intern(out)
    }

    /// `map` closed under the backwards moves along flow into useful components, but the
    /// deferred ones.
    fn walk(&mut self, map: LocsId) -> LocsId {
        let (comps, walk_preds) = (self.comps, &self.walk_preds);
        let preds = |x: Rho| walk_preds.get(&x).unwrap_or(&comps.preds[x]);
        let useful = &self.useful;
        let reaches_more = self
            .locs
            .get(map)
            .iter()
            .any(|l| preds(l.rho).iter().any(|&p| useful[p.0 as usize]));
        if !reaches_more {
            return map;
        }
        let mut at: FxHashMap<LocKey, Loc> =
            self.locs.get(map).iter().map(|l| (l.key(), *l)).collect();
        let mut work: Vec<LocKey> = self.locs.get(map).iter().map(Loc::key).collect();
        while let Some(key) = work.pop() {
            let loc = at[&key];
            crate::budget::poll();
            for &pred in preds(loc.rho) {
                if !useful[pred.0 as usize] {
                    continue;
                }
                let moved = Loc { rho: pred, ..loc };
                match at.entry(moved.key()) {
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(moved);
                        work.push(moved.key());
                    }
                    std::collections::hash_map::Entry::Occupied(mut o) => {
                        let old = *o.get();
                        let accesses = self.locs.union_accesses(old.accesses, loc.accesses);
                        let merged = Loc {
                            writes: old.writes || loc.writes,
                            accesses,
                            ..old
                        };
                        if merged != old {
                            o.insert(merged);
                            work.push(moved.key());
                        }
                    }
                }
            }
        }
        let implied: Vec<LocKey> = at
            .values()
            .filter(|l| self.implied(l, &at))
            .map(Loc::key)
            .collect();
        for key in implied {
            at.remove(&key);
        }
        self.locs.intern(at.into_values().collect())
    }

    /// Whether the fact `loc` of a deferred component is one that the check makes of the facts
    /// `at` anyway ([`Propagated::deferred_into`]): its write flag and accesses are within
    /// those of the sticky components it moves from. Leaving such facts out keeps one form of
    /// each closed map, so that maps reached by different paths are still shared and
    /// translated once.
    fn implied(&self, loc: &Loc, at: &FxHashMap<LocKey, Loc>) -> bool {
        let Some(into) = self.deferred_into.get(&loc.rho) else {
            return false;
        };
        let from: Vec<&Loc> = into
            .iter()
            .filter_map(|x| at.get(&(*x, loc.internal, loc.held)))
            .collect();
        let sets: Vec<AccSetId> = from.iter().map(|l| l.accesses).collect();
        !from.is_empty()
            && (!loc.writes || from.iter().any(|l| l.writes))
            && self.locs.covered(loc.accesses, &sets)
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
        let Some(main) = self.p.main else {
            return Tagged::default();
        };
        let (comps, homes) = (self.comps, self.homes);
        let targets: rustc_hash::FxHashSet<Rho> = self
            .p
            .checked
            .iter()
            .filter(|&&r| homes.home_of(r).unwrap_or(main) == main)
            .map(|&r| comps.of[r])
            .collect();
        // Each distinct map once: thousands of contexts at the root share a few.
        let mut maps: Vec<LocsId> = self.by_func[main].iter().map(|&c| self.read[c]).collect();
        maps.sort_unstable();
        maps.dedup();
        let mut root_comps: Vec<Rho> = maps
            .iter()
            .flat_map(|&m| self.locs.get(m).iter().map(|l| l.rho))
            .collect();
        root_comps.sort_unstable();
        root_comps.dedup();
        // With the components whose facts are deferred.
        let mut deferred: Vec<Rho> = root_comps
            .iter()
            .flat_map(|&x| self.carried.get(&x).into_iter().flatten().copied())
            .collect();
        root_comps.append(&mut deferred);
        root_comps.sort();
        root_comps.dedup();
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
        for v in tagged.seeds.values_mut() {
            v.sort();
        }
        let mut generics: Vec<Rho> = tagged.seeds.keys().copied().collect();
        generics.sort();
        let reach = self.reach_at_root(&generics, &targets);
        for (generic, reached) in generics.into_iter().zip(reach) {
            for &rho in reached.iter() {
                tagged.sources.entry(rho).or_default().push(generic);
            }
        }
        tagged
    }

    /// For each component of `starts` (in order), the components of `targets` reachable from
    /// it at the root: backwards along flow and summary edges and from call results into their
    /// functions (sorted). Found for all of them at once, by strongly connected components
    /// (Tarjan's algorithm, without recursion) with the answer of each component memoised: a
    /// walk from each start crossed again the parts of the graph the others had crossed (a
    /// blob reached from thousands of generic results made them grow as the square of the
    /// program: 9 s of the 13.6 s of the facts of the `all` shape at 1M lines). The walk's
    /// state is in arrays by component, and the answers are numbered sets, the empty one (most
    /// components reach no target) without an allocation.
    fn reach_at_root(&self, starts: &[Rho], targets: &FxHashSet<Rho>) -> Vec<Rc<[Rho]>> {
        let comps = self.comps;
        let n = comps.of.len();
        // The moves out of a component: its predecessors, then its results' generic labels.
        let mut results: Vec<(u32, u32)> = Vec::new();
        for inst in &self.c.rho_insts {
            if inst.polarity == Polarity::Pos {
                results.push((comps.of[inst.instance].0, comps.of[inst.generic].0));
            }
        }
        let results = Rows::new(n, results.iter().copied());
        let moves = |x: Rho, k: usize| -> Option<Rho> {
            let preds = &comps.preds[x];
            match preds.get(k) {
                Some(&y) => Some(y),
                None => results.row(x.0).get(k - preds.len()).map(|&y| Rho(y)),
            }
        };
        let moves_of = |x: Rho| {
            comps.preds[x]
                .iter()
                .copied()
                .chain(results.row(x.0).iter().map(|&y| Rho(y)))
        };
        let mut walk = Tarjan::new(n);
        for &start in starts {
            if walk.number[start.0 as usize] != UNVISITED {
                continue;
            }
            let mut frames: Vec<(Rho, usize)> = vec![(start, 0)];
            walk.enter(start);
            while let Some(&mut (x, ref mut k)) = frames.last_mut() {
                if let Some(y) = moves(x, *k) {
                    *k += 1;
                    let number = walk.number[y.0 as usize];
                    if number == UNVISITED {
                        walk.enter(y);
                        frames.push((y, 0));
                    } else if walk.on_stack[y.0 as usize] {
                        walk.lower(x, number);
                    }
                    continue;
                }
                frames.pop();
                let (n, low) = (walk.number[x.0 as usize], walk.low[x.0 as usize]);
                if let Some(&(parent, _)) = frames.last() {
                    walk.lower(parent, low);
                }
                if n != low {
                    continue;
                }
                // `x` is the root of a component: its members are on the stack down to it.
                let at = walk
                    .stack
                    .iter()
                    .rposition(|&m| m == x)
                    .expect("on the stack");
                let members: Vec<Rho> = walk.stack.split_off(at);
                let mut found: Vec<Rho> = Vec::new();
                for &m in &members {
                    walk.on_stack[m.0 as usize] = false;
                    if targets.contains(&m) {
                        found.push(m);
                    }
                    for y in moves_of(m) {
                        found.extend(walk.sets[walk.reach[y.0 as usize] as usize].iter().copied());
                    }
                }
                let set = if found.is_empty() {
                    NOTHING
                } else {
                    found.sort_unstable();
                    found.dedup();
                    walk.sets.push(found.into());
                    (walk.sets.len() - 1) as u32
                };
                for m in members {
                    walk.reach[m.0 as usize] = set;
                }
            }
        }
        starts
            .iter()
            .map(|s| walk.sets[walk.reach[s.0 as usize] as usize].clone())
            .collect()
    }

    /// What a fact of component `comp` in function `callee` becomes in the caller at `site`: the
    /// components of the images of its members (each with whether it is an internal copy,
    /// [`Prop::images`]), sorted. A member whose home is `callee` is a location of one run of
    /// the callee: its callers see other locations, so it has none.
    fn translated(&mut self, comp: Rho, site: Site, callee: FnId) -> Images {
        if let Some(v) = self.translated_memo[site].get(&(comp, callee)) {
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
        if self.translated_count >= MEMO_CAP {
            self.translated_memo.iter_mut().for_each(FxHashMap::clear);
            self.translated_count = 0;
        }
        self.translated_memo[site].insert((comp, callee), out.clone());
        self.translated_count += 1;
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
        let groups = self
            .groups
            .entry(comp)
            .or_insert_with(|| MemberGroups::new(&comps.members[comp], c, homes, scopes));
        let mut with_image: FxHashMap<(Scope, Option<FnId>), usize> = FxHashMap::default();
        for (m, images) in self.index.rho_images.at(site) {
            if comps.of[m] != comp {
                continue;
            }
            let home = homes.home_of(m);
            *with_image.entry((c.rhos[m].scope, home)).or_default() += 1;
            if home != Some(callee) {
                out.extend(images.iter().map(|&r| (comps.of[r], false)));
            }
        }
        // The groups some member of which has no image here stay the component: an internal
        // copy when generic at the site's binder. Counted by genericity: all groups, less those
        // of the callee (its own labels, see `translated`) and those whose every member has an
        // image here.
        let binder = c.sites[site].binder;
        let generic = |scope: Scope| binder != Scope::ROOT && scopes.within(scope, binder);
        let under = if binder == Scope::ROOT {
            0
        } else {
            groups.within(binder, scopes)
        };
        let mut left = [groups.count.len() - under, under];
        for &scope in groups
            .by_home
            .get(&Some(callee))
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            left[generic(scope) as usize] -= 1;
        }
        for (&(scope, home), &n) in &with_image {
            if home != Some(callee) && n >= groups.count[&(scope, home)] {
                left[generic(scope) as usize] -= 1;
            }
        }
        for (generic, n) in [false, true].into_iter().zip(left) {
            if n > 0 {
                out.push((comp, generic));
            }
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
            let gens = index.result_of.row(member.0);
            out.extend(gens.iter().map(|&(site, g)| (site, comps.of[g])));
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
            Some(v) => (v.to_vec(), false),
            None => {
                let binder = self.c.sites[site].binder;
                let generic =
                    binder != Scope::ROOT && self.scopes.within(self.c.rhos[rho].scope, binder);
                (vec![rho], generic)
            }
        }
    }
}

/// A property of `map` remembered in `memo` (by map id, grown as maps are made), computed by
/// `compute` the first time it is asked.
fn remembered(memo: &mut Vec<Option<bool>>, map: LocsId, compute: impl FnOnce() -> bool) -> bool {
    let k = map.0 as usize;
    if memo.len() <= k {
        memo.resize(k + 1, None);
    }
    *memo[k].get_or_insert_with(compute)
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

/// The read-only inputs of the facts' propagation.
#[derive(Clone, Copy)]
pub struct FactInputs<'a> {
    pub constraints: &'a Constraints,
    pub scopes: &'a ScopeTree,
    pub program: &'a ThreadProgram,
    pub structure: &'a Structure,
    pub comps: &'a Components,
    pub index: &'a Index,
    pub linearity: &'a Linearity,
    pub mhp: &'a Mhp,
    pub homes: &'a Homes,
    /// The barrier phase of each access.
    pub phases: &'a IndexVec<AccessId, Phase>,
    pub stats: &'a Stats,
}

/// Propagates every access of `p` up to `main`, or to the home of its label, and returns all
/// facts.
pub fn propagate(inputs: FactInputs<'_>, locks: &mut LockTable, ls: &mut Locksets) -> Propagated {
    let FactInputs {
        constraints: c,
        scopes,
        program: p,
        structure: s,
        comps,
        index,
        linearity,
        mhp,
        homes,
        phases,
        stats,
    } = inputs;
    let (fixed, sticky) = stats.time("facts: staying components", || {
        staying_components(c, comps, index, homes)
    });
    let useful = stats.time("facts: useful components", || {
        useful_components(c, p, comps)
    });
    let gains_locks = ls.lock_holding_callers(s);
    let mut prop = Prop {
        stats,
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
        points_read: points_read(p, s, homes),
        cx: Contexts::new(mhp),
        ctxs: IndexVec::new(),
        ctx_index: IndexVec::from_elem_n(FxHashMap::default(), p.funcs.len()),
        by_func: IndexVec::from_elem_n(Vec::new(), p.funcs.len()),
        maps: IndexVec::new(),
        sent: IndexVec::new(),
        pending: IndexVec::new(),
        read: IndexVec::new(),
        reads: Reads::default(),
        own_invariant: IndexVec::new(),
        fed_invariant: Vec::new(),
        invariant_edges: Vec::new(),
        invariant: IndexVec::new(),
        gathered: Vec::new(),
        invariant_comps: Vec::new(),
        split_memo: FxHashMap::default(),
        rank_cuts: FxHashMap::default(),
        locs: LocMaps::new(),
        useful,
        edge_memo: IndexVec::new(),
        image_memo: IndexVec::from_elem_n(FxHashMap::default(), c.sites.len()),
        close_memo: FxHashMap::default(),
        fixed,
        sticky,
        unmoved: Unmoved::new(c, comps, index, homes, scopes),
        deferred: Vec::new(),
        carried: FxHashMap::default(),
        deferred_scopes: FxHashMap::default(),
        walk_preds: FxHashMap::default(),
        deferred_into: FxHashMap::default(),
        map_fixed: Vec::new(),
        partition_memo: FxHashMap::default(),
        partition_locs: 0,
        map_exposes: Vec::new(),
        translated_memo: IndexVec::from_elem_n(FxHashMap::default(), c.sites.len()),
        translated_count: 0,
        set_memo: SetTranslations::default(),
        held_fixed: FxHashMap::default(),
        results_memo: FxHashMap::default(),
        groups: FxHashMap::default(),
        gains_locks,
        widening: (
            Widening::new([Join::Must], widen::VARIANTS),
            Widening::new([Join::May], widen::RELEASED_VARIANTS),
        ),
    };
    prop.deferred = stats.time("facts: deferred components", || {
        deferred_components(
            c,
            comps,
            index,
            homes,
            scopes,
            &prop.useful,
            Chains::Deferred,
        )
    });
    prop.set_up_deferral();
    prop.invariant_comps = {
        let p = &prop;
        let translating = translating_ranks(c, s);
        let staying = |x: usize| {
            let rho = Rho(x as u32);
            if p.deferred_scopes.contains_key(&rho)
                || p.walk_preds.contains_key(&rho)
                || p.carried.contains_key(&rho)
            {
                return None;
            }
            if p.fixed[x] {
                return Some(Rank::EVERYWHERE);
            }
            p.deferred[x].map(|scope| translating.above(scope, scopes))
        };
        invariant_components(staying, &p.useful, &p.comps.preds)
    };
    prop.seed(phases);
    stats.time("facts: propagation", || prop.run());
    stats.time("facts: invariant locations gathered", || {
        prop.gather_invariant()
    });
    prop.record_counts();
    stats.time("facts: locks into the contexts read", || {
        prop.held_where_checked()
    });
    let tagged = stats.time("facts: copies at the root", || prop.tagged());
    if let Some(last) = prop.ctxs.len().checked_sub(1) {
        prop.read.ensure(CtxId::new(last), LocMaps::EMPTY);
    }
    Propagated {
        ctxs: prop.ctxs,
        maps: prop.read,
        by_func: prop.by_func,
        locs: prop.locs,
        handle_sets: prop.cx.handle_sets,
        site_sets: prop.cx.site_sets,
        nests: prop.cx.nests,
        tagged,
        deferred_into: prop.deferred_into,
        reads: prop.reads,
    }
}

/// The rank of a function in [`Structure::thread_scc_of`]'s order (callees and thread
/// functions first), from 1, or a bound on such ranks: a location invariant from rank `r` is
/// left where it is by every call and fork above each function of rank `r` or more.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Rank(u32);

impl Rank {
    /// Invariant above every function.
    const EVERYWHERE: Rank = Rank(0);
}

/// The calls and forks that translate the labels of a scope: for each binder of a call or fork
/// site, the highest index in [`Structure::thread_sccs`] of a function called or started there.
struct TranslatingRanks(FxHashMap<Scope, u32>);

fn translating_ranks(c: &Constraints, s: &Structure) -> TranslatingRanks {
    let mut at: FxHashMap<Scope, u32> = FxHashMap::default();
    for (f, points) in s
        .callers
        .iter_enumerated()
        .chain(s.forkers.iter_enumerated())
    {
        let k = s.thread_scc_of[f] as u32;
        for pt in points {
            let e = at.entry(c.sites[pt.site].binder).or_insert(k);
            *e = (*e).max(k);
        }
    }
    TranslatingRanks(at)
}

impl TranslatingRanks {
    /// From which rank a label of `scope` that only sites generic for it translate
    /// ([`deferred_components`]) is invariant: a site translates it only when the scope lies
    /// within the site's binder, and every call and fork above a function of rank `r` calls or
    /// starts a function of rank `r` or more, so above the functions ranked past every such
    /// site's, none translates it. (A buffer of each caller that a function called through a
    /// pointer writes: the label stays the callee's, an internal copy, in every caller above,
    /// and all those callers' maps held every callee's buffer.)
    fn above(&self, scope: Scope, scopes: &ScopeTree) -> Rank {
        let mut highest: Option<u32> = None;
        let mut at = Some(scope);
        while let Some(x) = at {
            if let Some(&k) = self.0.get(&x) {
                highest = Some(highest.map_or(k, |h| h.max(k)));
            }
            at = scopes.parent(x);
        }
        highest.map_or(Rank::EVERYWHERE, |k| Rank(k + 2))
    }
}

/// From which rank ([`Rank`]) a location in each component is invariant ([`Prop::invariant`]),
/// if from any: the latest of what `staying` says of the component (none: some call or fork
/// anywhere may translate it, or it has deferred predecessors that a site may translate,
/// [`Prop::expose`]; [`Rank::EVERYWHERE`]: its labels are [`fixed`](Prop::fixed)) and of its
/// `useful` predecessors along flow (`preds`), so that the closure of a fact there under flow
/// ([`Prop::close`]) is made of facts invariant there too. (A global that a local pointer's
/// target flows into is invariant nowhere: its closure reaches the local, which each caller
/// sees as an internal copy.)
fn invariant_components(
    staying: impl Fn(usize) -> Option<Rank>,
    useful: &[bool],
    preds: &IndexVec<Rho, Vec<Rho>>,
) -> Vec<Option<Rank>> {
    const UNKNOWN: u8 = 0;
    const VISITING: u8 = 1;
    const DONE: u8 = 2;
    let n = useful.len();
    let mut state = vec![UNKNOWN; n];
    let mut from: Vec<Option<Rank>> = vec![None; n];
    for start in 0..n {
        if state[start] != UNKNOWN || !useful[start] {
            continue;
        }
        // Depth first, a component decided once its useful predecessors are; one met again
        // while being visited (the flow graph's components have no cycle) counts as not.
        let mut stack: Vec<usize> = vec![start];
        while let Some(&x) = stack.last() {
            if state[x] == UNKNOWN {
                from[x] = staying(x);
                if from[x].is_none() {
                    state[x] = DONE;
                    stack.pop();
                    continue;
                }
                state[x] = VISITING;
                stack.extend(
                    (preds[Rho(x as u32)].iter().map(|p| p.0 as usize))
                        .filter(|&p| useful[p] && state[p] == UNKNOWN),
                );
                continue;
            }
            stack.pop();
            if state[x] == VISITING {
                for p in preds[Rho(x as u32)].iter().map(|p| p.0 as usize) {
                    if !useful[p] {
                        continue;
                    }
                    from[x] = match (from[x], state[p], from[p]) {
                        (Some(a), DONE, Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
                state[x] = DONE;
            }
        }
    }
    from
}

/// The functions where the point of a fact of a thread other than the function's own is read:
/// where the check reads facts (`main`, the homes and owners of checked labels,
/// [`Homes::checked_at`]) and the functions threads start in, whose facts keep their point in
/// the nest they take through the fork ([`Contexts::through_fork`]). Anywhere else such a
/// fact's point is read by nothing: through a call it becomes the call's point, and its other
/// parts (its `inside` is empty, its `joined` is the call's) do not depend on it. Those facts
/// are then kept at no point, one context for the facts reached through every call point of a
/// function: a registration function called at thousands of points, each call starting a
/// thread that runs every registered callback, made a context per point and per lock set of
/// the callbacks (the callbacks shape with its library: 10.5 million contexts at 1M lines).
fn points_read(p: &ThreadProgram, s: &Structure, homes: &Homes) -> IndexVec<FnId, bool> {
    let mut read = IndexVec::from_elem_n(false, p.funcs.len());
    if let Some(main) = p.main {
        for f in homes.checked_at(&p.checked, main) {
            read[f] = true;
        }
    }
    for (f, forkers) in s.forkers.iter_enumerated() {
        if !forkers.is_empty() {
            read[f] = true;
        }
    }
    read
}

/// Which components a fact can lead from to a checked label: those from which a checked label's
/// component is reachable by the moves of propagation — backwards along flow and summary edges,
/// to the images of a member at a site (or the component itself, for members without one), and
/// at the root from a call's result to the function's generic result. A fact anywhere else has
/// no descendant the check reads, and is no ancestor of one (an ancestor reaches its descendants
/// by these moves), so neither the check's facts nor the accesses behind them change when it is
/// not made. About 40 % of the facts were such dead ends (a local's label a value flowed
/// through, a parameter copied nowhere).
fn useful_components(c: &Constraints, p: &ThreadProgram, comps: &Components) -> Vec<bool> {
    let n = comps.of.len();
    // The moves, reversed: for each component, the components a fact can move to it from:
    // along flow, from a generic label to its images (`Index::rho_images`), from a call's
    // result back to the function's (`Index::result_of`). Read from the instantiations
    // themselves, in order, rather than from the index's maps (a vector per key, visited in
    // hash order: a cache miss per instantiation).
    let mut moves: Vec<(u32, u32)> = Vec::new();
    for (x, preds) in comps.preds.iter_enumerated() {
        moves.extend(preds.iter().map(|&pred| (pred.0, x.0)));
    }
    for inst in &c.rho_insts {
        let (generic, instance) = (comps.of[inst.generic].0, comps.of[inst.instance].0);
        if generic == instance {
            continue;
        }
        moves.push((instance, generic));
        if inst.polarity == Polarity::Pos {
            moves.push((generic, instance));
        }
    }
    let from = Rows::new(n, moves.iter().copied());
    let mut useful = vec![false; n];
    // Breadth first, each level's components visited in order: the rows are read in the
    // order they lie in memory, where a depth-first walk read each at random (bigstruct at 1M
    // lines: 11M moves, 2.9M useful components, 313 ms -> 117 ms).
    let mut level: Vec<u32> = p.checked.iter().map(|&r| comps.of[r].0).collect();
    for &x in &level {
        useful[x as usize] = true;
    }
    while !level.is_empty() {
        level.sort_unstable();
        level.dedup();
        let mut next = Vec::new();
        for &x in &level {
            for &y in from.row(x) {
                if !useful[y as usize] {
                    useful[y as usize] = true;
                    next.push(y);
                }
            }
        }
        level = next;
    }
    useful
}

/// Which components a call or fork leaves where they are, as `(fixed, sticky)`. A label stays
/// when it belongs to the root scope (it is never generic at a site's binder), has no image at
/// any site and no home in a function (whose callers would not see it).
///
/// - *Fixed*: every member stays, so [`Prop::translated`] of the component is the component
///   itself, not internal. Globals and the memory `main` allocates are such.
/// - *Sticky*: some member stays, so [`Prop::translated`] of the component contains itself,
///   with its internal flag unchanged.
fn staying_components(
    c: &Constraints,
    comps: &Components,
    index: &Index,
    homes: &Homes,
) -> (Vec<bool>, Vec<bool>) {
    // By label, not a hash set: every label is asked (bigstruct at 1M lines: 3.3M).
    let mut generic = vec![false; c.rhos.len()];
    for (g, _) in index.rho_images.keys() {
        generic[g.index()] = true;
    }
    let n = comps.of.len();
    let (mut fixed, mut sticky) = (vec![true; n], vec![false; n]);
    for (rho, info) in c.rhos.iter_enumerated() {
        let i = comps.of[rho].0 as usize;
        if info.scope == Scope::ROOT && homes.home_of(rho).is_none() && !generic[rho.index()] {
            sticky[i] = true;
        } else {
            fixed[i] = false;
        }
    }
    (fixed, sticky)
}

/// Which components a fact moving backwards along flow from a sticky component (figure 8b,
/// first rule) is left to [`Prop::expose`] and to the check ([`Propagated::deferred_into`]),
/// each with the scope of its labels: the useful ones whose labels all have one scope and no
/// home, and are translated only at sites within whose binder that scope lies (generic there),
/// and whose useful predecessors are all such too (the leaves have none; with
/// [`Chains::Explicit`], only leaves). A call or fork elsewhere leaves such a fact where it
/// is, as it leaves the sticky component it came from, so the move can be made when the fact
/// reaches such a site or the function where it is checked: the facts there are the same. The
/// objects a thousand callbacks' `void *` arguments flow into and out of are such, and so are
/// the chains a request's buffer takes into a queue's global through the
/// parameters of a function called at a thousand points (a buffer allocated by each caller,
/// then the instance of the parameter at each call): with leaves only, each such chain's
/// labels were explicit in every map of a thread that reads the queue, and every caller's
/// map was a copy of the thread's with its own chain translated (the lazy shape: 21 million
/// locations in 38,151 maps at 200k lines).
fn deferred_components(
    c: &Constraints,
    comps: &Components,
    index: &Index,
    homes: &Homes,
    scopes: &ScopeTree,
    useful: &[bool],
    chains: Chains,
) -> Vec<Option<Scope>> {
    let n = comps.of.len();
    let mut deferred: Vec<Option<Scope>> = vec![None; n];
    let mut mixed = vec![false; n];
    for (rho, info) in c.rhos.iter_enumerated() {
        let i = comps.of[rho].0 as usize;
        if homes.home_of(rho).is_some() {
            mixed[i] = true;
        }
        match deferred[i] {
            None => deferred[i] = Some(info.scope),
            Some(scope) if scope != info.scope => mixed[i] = true,
            Some(_) => {}
        }
    }
    for (generic, site) in index.rho_images.keys() {
        let scope = c.rhos[generic].scope;
        if scope == Scope::ROOT || !scopes.within(scope, c.sites[site].binder) {
            mixed[comps.of[generic].0 as usize] = true;
        }
    }
    // A useful component that cannot be deferred keeps every useful component it reaches
    // forwards (whose facts move into it) from being deferred: found by a walk along the
    // reversed predecessor lists from all of them at once.
    let mut succs: Vec<Vec<Rho>> = vec![Vec::new(); n];
    let mut kept: Vec<Rho> = Vec::new();
    for (x, preds) in comps.preds.iter_enumerated() {
        let i = x.0 as usize;
        if comps.of[x] != x || !useful[i] {
            deferred[i] = None;
            continue;
        }
        for p in preds.iter().filter(|p| useful[p.0 as usize]) {
            succs[p.0 as usize].push(x);
        }
        if chains == Chains::Explicit && preds.iter().any(|p| useful[p.0 as usize]) {
            // Not a leaf: left out, and leaving its successors as they are.
            deferred[i] = None;
        } else if mixed[i] {
            deferred[i] = None;
            kept.push(x);
        }
    }
    while let Some(x) = kept.pop() {
        for &y in &succs[x.0 as usize] {
            if deferred[y.0 as usize].take().is_some() {
                kept.push(y);
            }
        }
    }
    deferred
}

/// Whether [`deferred_components`] defers chains of components or leaves only.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Chains {
    Deferred,
    Explicit,
}

/// [`Prop::set_up_deferral`] defers leaves only when the sticky components would carry more
/// than this many deferred components per edge of the flow graph, beyond [`CARRIED_MIN`].
const CARRIED_PER_EDGE: usize = 4;
const CARRIED_MIN: usize = 1 << 20;

/// Per sticky component, the deferred components whose facts it carries without the maps
/// saying so: its deferred predecessors and, through them, theirs (sorted). Components with
/// none are left out. `None` as soon as they are more than `limit` in all.
fn deferred_carried(
    comps: &Components,
    sticky: &[bool],
    deferred: &[Option<Scope>],
    limit: usize,
) -> Option<FxHashMap<Rho, Vec<Rho>>> {
    let mut out: FxHashMap<Rho, Vec<Rho>> = FxHashMap::default();
    let mut total = 0usize;
    // The sticky component whose walk last visited each component.
    let mut seen: Vec<u32> = vec![u32::MAX; comps.of.len()];
    for (x, preds) in comps.preds.iter_enumerated() {
        if !sticky[x.0 as usize] {
            continue;
        }
        let mut carried: Vec<Rho> = Vec::new();
        let mut work: Vec<Rho> = preds.to_vec();
        while let Some(p) = work.pop() {
            let i = p.0 as usize;
            if deferred[i].is_none() || seen[i] == x.0 {
                continue;
            }
            seen[i] = x.0;
            carried.push(p);
            total += 1;
            if total > limit {
                return None;
            }
            work.extend_from_slice(&comps.preds[p]);
        }
        if !carried.is_empty() {
            carried.sort_unstable();
            out.insert(x, carried);
        }
    }
    Some(out)
}

/// For [`Prop::deferred_scopes`]: per sticky component, the deferred components it carries
/// ([`deferred_carried`]) of scopes other than the root, with the pre-order number of their
/// scope, sorted (components without any are left out).
fn deferred_scopes(
    carried: &FxHashMap<Rho, Vec<Rho>>,
    scopes: &ScopeTree,
    deferred: &[Option<Scope>],
) -> FxHashMap<Rho, Vec<(u32, Rho)>> {
    let mut out: FxHashMap<Rho, Vec<(u32, Rho)>> = FxHashMap::default();
    for (&x, carried) in carried {
        let mut entries: Vec<(u32, Rho)> = carried
            .iter()
            .filter_map(|&p| Some((deferred[p.0 as usize]?, p)))
            .filter(|&(scope, _)| scope != Scope::ROOT)
            .map(|(scope, p)| (scopes.interval(scope).map_or(0, |(entry, _)| entry), p))
            .collect();
        if entries.is_empty() {
            continue;
        }
        entries.sort_unstable();
        out.insert(x, entries);
    }
    out
}

/// The state of Tarjan's algorithm in [`Prop::reach_at_root`]: each visited component's
/// number and lowest number reached, the stack, and the moves out of each component on it.
#[derive(Default)]
struct Tarjan {
    /// The number of each component in the order the walk entered it ([`UNVISITED`] before).
    number: Vec<u32>,
    /// The lowest number each component reaches on the stack.
    low: Vec<u32>,
    stack: Vec<Rho>,
    on_stack: Vec<bool>,
    /// Each finished component's answer, as a number in `sets`.
    reach: Vec<u32>,
    /// The distinct answers; [`NOTHING`] is the empty set.
    sets: Vec<Rc<[Rho]>>,
    entered: u32,
}

/// The number of a component [`Tarjan`] has not entered.
const UNVISITED: u32 = u32::MAX;
/// The empty answer of [`Tarjan`].
const NOTHING: u32 = 0;

impl Tarjan {
    fn new(n: usize) -> Tarjan {
        Tarjan {
            number: vec![UNVISITED; n],
            low: vec![UNVISITED; n],
            stack: Vec::new(),
            on_stack: vec![false; n],
            reach: vec![NOTHING; n],
            sets: vec![Rc::from(Vec::new())],
            entered: 0,
        }
    }

    fn enter(&mut self, x: Rho) {
        let i = x.0 as usize;
        self.number[i] = self.entered;
        self.low[i] = self.entered;
        self.entered += 1;
        self.stack.push(x);
        self.on_stack[i] = true;
    }

    /// Lowers the lowest number `x` reaches to `n`, if below.
    fn lower(&mut self, x: Rho, n: u32) {
        let low = &mut self.low[x.0 as usize];
        *low = (*low).min(n);
    }
}

/// The result of [`propagate`]: every fact, as contexts and their location maps.
pub struct Propagated {
    pub ctxs: IndexVec<CtxId, FactCtx>,
    /// The facts of each context at the functions the check reads: each location the check
    /// reads there, and no other, with its locks in its context's ([`Loc::held`] empty).
    /// Elsewhere empty: nothing reads them.
    pub maps: IndexVec<CtxId, LocsId>,
    /// The contexts seen from each function.
    pub by_func: IndexVec<FnId, Vec<CtxId>>,
    pub locs: LocMaps,
    pub handle_sets: HandleSets,
    pub site_sets: SiteSets,
    pub nests: Nests,
    pub tagged: Tagged,
    /// The facts a map leaves implicit: for each component whose facts are deferred, the
    /// sticky components it is a predecessor of, directly or through deferred components
    /// (sorted). Its facts are theirs, in every map that has them, besides its own
    /// (`Prop::close`).
    pub deferred_into: FxHashMap<Rho, Vec<Rho>>,
    /// What the check reads at each function, and all that `maps` keeps there.
    pub reads: Reads,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{Polarity, RhoKind, SiteKind};

    /// A location is invariant only where every useful component its facts move to along
    /// flow is: a global with a staying predecessor chain is; one that a moving label flows
    /// into is not, nor is anything downstream of it; useless predecessors do not count.
    #[test]
    fn invariant_components_need_every_useful_predecessor_invariant() {
        // 0 <- 1 <- 2 (all staying); 3 <- 4 (4 moves); 5 <- 3; 6 <- 7 (7 moves, useless).
        let mut preds: IndexVec<Rho, Vec<Rho>> = IndexVec::from_elem_n(Vec::new(), 8);
        for (to, from) in [(0, 1), (1, 2), (3, 4), (5, 3), (6, 7)] {
            preds[Rho(to)].push(Rho(from));
        }
        // 1 is invariant only from rank 3, and so is 0, whose closure reaches it.
        let staying = |x: usize| match x {
            4 | 7 => None,
            1 => Some(Rank(3)),
            _ => Some(Rank::EVERYWHERE),
        };
        let mut useful = vec![true; 8];
        useful[7] = false;
        let invariant = invariant_components(staying, &useful, &preds);
        let (all, from_3) = (Some(Rank::EVERYWHERE), Some(Rank(3)));
        assert_eq!(
            invariant,
            [from_3, from_3, all, None, None, None, all, None]
        );
    }

    /// A blob (a global pointer's target) that objects flow into, directly or through a chain
    /// of labels: which of its predecessors have their moves deferred, and where a site makes
    /// them.
    #[test]
    fn chains_of_predecessors_of_a_sticky_component_are_deferred() {
        let mut c = Constraints::new();
        let f = c.new_scope(Scope::ROOT);
        let g = c.new_scope(Scope::ROOT);
        let blob = c.new_rho(Scope::ROOT, RhoKind::Plain);
        // `main`'s object: fixed, never translated.
        let obj = c.new_rho(Scope::ROOT, RhoKind::Alloc);
        // The target of a parameter of the function of scope `f`: translated at its sites.
        let arg = c.new_rho(f, RhoKind::Plain);
        // A chain into the blob (a buffer of `f` through the instance of a parameter): the
        // moves into both are deferred.
        let mid = c.new_rho(f, RhoKind::Plain);
        let src = c.new_rho(f, RhoKind::Alloc);
        // A label of `f` with an image at a site of another function: not only translated
        // where its scope is generic, so never deferred; nor is the label it flows into.
        let stray = c.new_rho(f, RhoKind::Plain);
        let above = c.new_rho(f, RhoKind::Plain);
        // A label with a home: its facts stop at that function.
        let private = c.new_rho(Scope::ROOT, RhoKind::Alloc);
        for x in [obj, arg, mid, above, private] {
            c.flow(x, blob);
        }
        c.flow(src, mid);
        c.flow(stray, above);
        let call_f = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        let call_g = c.new_site(g, Scope::ROOT, SiteKind::Inst);
        c.rho_inst(arg, call_f, Polarity::Neg, obj);
        c.rho_inst(stray, call_g, Polarity::Neg, obj);
        c.scopes.freeze();
        let comps = crate::cfl::close(&c, &c.scopes, &crate::stats::Stats::off()).components();
        let index = Index::new(&c);
        let mut homes = Homes::none(&c);
        homes.home[private] = Some(FnId(0));
        let useful = vec![true; comps.of.len()];
        let defer =
            |chains| deferred_components(&c, &comps, &index, &homes, &c.scopes, &useful, chains);
        let deferred = defer(Chains::Deferred);
        let of = |x: Rho| deferred[comps.of[x].0 as usize];
        assert_eq!(of(obj), Some(Scope::ROOT));
        assert_eq!(of(arg), Some(f));
        assert_eq!(of(src), Some(f));
        assert_eq!(of(mid), Some(f));
        for not in [blob, stray, above, private] {
            assert_eq!(of(not), None, "{not:?}");
        }
        let (_, sticky) = staying_components(&c, &comps, &index, &homes);
        assert!(sticky[comps.of[blob].0 as usize]);
        assert!(!sticky[comps.of[mid].0 as usize]);
        // The blob carries the chain's source through `mid`, but nothing through `above`.
        let carried = deferred_carried(&comps, &sticky, &deferred, usize::MAX).unwrap();
        let mut expected: Vec<Rho> = [obj, arg, mid, src].map(|x| comps.of[x]).to_vec();
        expected.sort_unstable();
        assert_eq!(carried[&comps.of[blob]], expected);
        // A site of `f` makes the moves into `arg`, `mid` and `src`, and only into them: the
        // root's objects stay deferred, and `g`'s interval holds none.
        let by_scope = deferred_scopes(&carried, &c.scopes, &deferred);
        let at_f: Vec<Rho> = by_scope[&comps.of[blob]].iter().map(|&(_, p)| p).collect();
        let mut expected: Vec<Rho> = [arg, mid, src].map(|x| comps.of[x]).to_vec();
        expected.sort_unstable();
        let mut at_f_sorted = at_f.clone();
        at_f_sorted.sort_unstable();
        assert_eq!(at_f_sorted, expected);
        let entry = |s: Scope| c.scopes.interval(s).map(|(entry, _)| entry);
        assert!(by_scope[&comps.of[blob]]
            .iter()
            .all(|&(e, _)| Some(e) == entry(f)));
        let (a, b) = c.scopes.interval(g).unwrap();
        assert!(!by_scope[&comps.of[blob]]
            .iter()
            .any(|&(e, _)| a <= e && e <= b));
        // Leaves only, as when the chains would be carried too many times: the chain's
        // source is deferred, its middle is not.
        let leaves = defer(Chains::Explicit);
        let of = |x: Rho| leaves[comps.of[x].0 as usize];
        assert_eq!(of(obj), Some(Scope::ROOT));
        assert_eq!(of(arg), Some(f));
        assert_eq!(of(src), Some(f));
        assert_eq!(of(mid), None);
    }
}
