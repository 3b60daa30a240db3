//! Relative locksets (paper §3.1, "Computing Held Locks").
//!
//! The locks held are a *must* analysis: forward, intersection at joins. A call is a "split": the
//! callee's effect on locks is its summary — the locks it must have acquired and those it may
//! have released by the time it returns, relative to its entry — translated through the call's
//! site (a lock parameter becomes the caller's lock). The caller's other locks bypass the call.
//! This is the relative-lockset formulation of RELAY (seed `003_…`): per function,
//! `held` = must-acquired since entry and `released` = may-released since entry. Summaries are
//! computed over the call graph's strongly connected components, callees first; a recursive
//! component iterates from "never returns" (⊤) down to its greatest fixpoint.
//!
//! Non-linear locks (see [`super::linearity`]) are never added to `held`, when the sets are
//! computed for what protects accesses ([`Holds::Protection`]). The deadlock check computes them
//! a second time for the lock order ([`Holds::Order`]), where a non-linear lock held is some
//! lock of its label, and a lock is held only when a lock call took it. There the lock order
//! also needs the locks held on *some* path (`may_held`, beyond the paper, whose sets only
//! protect): a lock taken on one branch (`if (k) lock(&b); lock(&a);`) orders the locks taken
//! after it, since on that path a thread waits for them holding it. Within a function these
//! are joined by union, and a call adds the locks its callee holds on some of its returns (its
//! may summary): a wrapper that locks only a non-null mutex (`if (p) lock(&p->m);`, a library
//! built to run without threads too) returns holding it on one path, and orders every lock its
//! callers take after it. A callee whose branches test one variable twice (`if (c) lock(x); …
//! if (c) unlock(x);`) would then hold `x` in every caller, on the path that skipped both:
//! the side of a test where a stable variable is zero takes the may-held set of the paths
//! that took no side where it is not ([`Ctx::unset_ends`]). A call whose result says it took
//! no lock (`h = begin(); if (!h) return;`) still leaves the lock held on that path: that may
//! report a deadlock that needs a path no run takes, never hide one.
//!
//! Read-write locks extend the paper's exclusive locks with a shared mode. A set holds *tokens*
//! ([`Held`]): a lock held for reading is its shared token, a lock held exclusively (a mutex, an
//! rwlock's write side) both tokens. The analysis is token-wise — a release drops both, a call
//! passes on the tokens its callee acquires and drops — so an intersection of a write hold with a
//! read hold keeps the read hold, and two accesses are ordered by a lock only if both hold it and
//! one holds it exclusively ([`LockSets::common_lock`]).
//!
//! Beyond the paper, locks count their holds unless locking them again may fail and return
//! ([`ThreadProgram::relock_fails`]): a lock held exclusively and locked again is held twice (a
//! second token, [`Held::again`]), and a release of a lock the function holds (acquired since
//! its entry) undoes that acquisition without releasing a hold of its caller. This is what a
//! recursive mutex does; for a normal mutex or a spin lock, locking it again blocks forever,
//! so what follows is never reached and any answer there is sound. A helper that locks and
//! unlocks the recursive mutex its caller holds then leaves it held.
//!
//! A condition wait (`pthread_cond_wait`, a release of its mutex and the retaking of it, two
//! adjacent events) leaves the held locks as they were: it must be called holding the mutex and
//! returns holding it again, the hold count too (a recursive mutex's wait releases one level and
//! retakes one). Stepping over its two events one by one would say that the caller's hold was
//! released and the function took the lock itself, and where a path that waited meets one that
//! did not (`while (!ready) cond_wait(&c, &m);` in a helper), the meet kept neither: the caller
//! lost its lock after every call of the helper.

use rustc_hash::{FxHashMap, FxHashSet};

use super::linearity::Linearity;
use super::structure::Structure;
use super::{AcqId, AcquireInfo, Event, FnId, Mode, ThreadProgram};
use crate::constraints::{Constraints, Lock, Site};
use crate::dataflow;
use crate::ids::IndexVec;
use crate::locks::LockTable;
use crate::scope::ScopeTree;

crate::define_id!(
    /// An interned set of held lock tokens.
    pub struct SetId, "L";
);

/// A lock class representative held in one mode: an element of a lock set. A lock held
/// exclusively is in a set with both of its tokens.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Held {
    pub lock: Lock,
    pub mode: Mode,
    /// A second exclusive hold of a lock already held (a recursive mutex locked again by its
    /// holder): one release leaves the lock held. Only with the exclusive token of the same
    /// lock; it orders nothing by itself.
    pub again: bool,
}

impl Held {
    /// The token of holding `lock` once in `mode`.
    pub fn new(lock: Lock, mode: Mode) -> Held {
        Held {
            lock,
            mode,
            again: false,
        }
    }

    /// The tokens of holding a lock in `mode`: exclusive holds both.
    pub fn tokens(mode: Mode) -> &'static [Mode] {
        match mode {
            Mode::Exclusive => &[Mode::Exclusive, Mode::Shared],
            Mode::Shared => &[Mode::Shared],
        }
    }
}

/// Interned sorted sets of held lock tokens.
#[derive(Default)]
pub struct LockSets {
    sets: IndexVec<SetId, Vec<Held>>,
    index: FxHashMap<Vec<Held>, SetId>,
    /// The results of [`LockSets::union`] (`false`) and [`LockSets::minus`] (`true`) by
    /// operands: propagating facts asks the same few pairs millions of times, and building
    /// and interning the set each time was a third of the facts phase.
    pairs: FxHashMap<(bool, SetId, SetId), SetId>,
}

impl LockSets {
    pub fn new() -> LockSets {
        let mut s = LockSets::default();
        s.intern(Vec::new());
        // The stand-in for every lock; no real set can equal it (no lock has this id).
        let all = s.intern(vec![Held::new(Lock(u32::MAX), Mode::Exclusive)]);
        debug_assert_eq!(all, Self::ALL);
        s
    }

    pub const EMPTY: SetId = SetId(0);

    /// Every lock: what a release through a lock that stands for no known lock may drop (see
    /// `Linearity::is_ungrounded`). Only *released* sets are ever `ALL`; the operations below
    /// treat it as the set of every token.
    pub const ALL: SetId = SetId(1);

    pub fn intern(&mut self, mut v: Vec<Held>) -> SetId {
        v.sort();
        v.dedup();
        if let Some(&id) = self.index.get(&v) {
            return id;
        }
        let id = self.sets.push(v.clone());
        self.index.insert(v, id);
        id
    }

    pub fn get(&self, id: SetId) -> &[Held] {
        &self.sets[id]
    }

    /// How many sets there are, and how many unions and differences are memoised (for the
    /// developer's statistics).
    pub fn sizes(&self) -> (usize, usize) {
        (self.sets.len(), self.pairs.len())
    }

    /// Whether two sets order their holders: some lock is in both, exclusively in one of them
    /// (two readers of an rwlock may run together).
    pub fn common_lock(&self, a: SetId, b: SetId) -> bool {
        self.common_lock_except(a, b, |_| false)
    }

    /// [`LockSets::common_lock`] with the locks `skip` says left out.
    pub fn common_lock_except(&self, a: SetId, b: SetId, skip: impl Fn(Lock) -> bool) -> bool {
        let (a, b) = (self.get(a), self.get(b));
        let holds = |set: &[Held], lock: Lock| set.iter().any(|h| h.lock == lock && !h.again);
        let exclusive = |h: &&Held| h.mode == Mode::Exclusive && !h.again && !skip(h.lock);
        a.iter().filter(exclusive).any(|h| holds(b, h.lock))
            || b.iter().filter(exclusive).any(|h| holds(a, h.lock))
    }

    pub fn union(&mut self, a: SetId, b: SetId) -> SetId {
        if a == Self::ALL || b == Self::ALL {
            return Self::ALL;
        }
        if a == b || b == Self::EMPTY {
            return a;
        }
        if a == Self::EMPTY {
            return b;
        }
        if let Some(&out) = self.pairs.get(&(false, a, b)) {
            return out;
        }
        let v: Vec<Held> = self.sets[a].iter().chain(&self.sets[b]).copied().collect();
        let out = self.intern(v);
        self.pairs.insert((false, a, b), out);
        out
    }

    pub fn intersect(&mut self, a: SetId, b: SetId) -> SetId {
        if a == b || b == Self::ALL {
            return a;
        }
        if a == Self::ALL {
            return b;
        }
        let vb = &self.sets[b];
        let v: Vec<Held> = self.sets[a]
            .iter()
            .copied()
            .filter(|x| vb.binary_search(x).is_ok())
            .collect();
        self.intern(v)
    }

    /// The tokens of `a` not in `b`; a second hold ([`Held::again`]) goes with its lock's
    /// exclusive token.
    pub fn minus(&mut self, a: SetId, b: SetId) -> SetId {
        if b == Self::EMPTY || a == Self::ALL {
            return a;
        }
        if b == Self::ALL {
            return Self::EMPTY;
        }
        if let Some(&out) = self.pairs.get(&(true, a, b)) {
            return out;
        }
        let vb = &self.sets[b];
        let v: Vec<Held> = self.sets[a]
            .iter()
            .copied()
            .filter(|x| vb.binary_search(&Held::new(x.lock, x.mode)).is_err())
            .collect();
        let out = self.intern(v);
        self.pairs.insert((true, a, b), out);
        out
    }

    /// The set with the tokens of holding `lock` in `mode` added.
    pub fn insert(&mut self, a: SetId, lock: Lock, mode: Mode) -> SetId {
        if a == Self::ALL || self.has_tokens(a, lock, mode) {
            return a;
        }
        let mut v = self.sets[a].clone();
        v.extend(Held::tokens(mode).iter().map(|&mode| Held::new(lock, mode)));
        self.intern(v)
    }

    /// The tokens of `lock` in `a` (a set is sorted by lock first): found by binary search, so
    /// that a release or acquire that leaves a large set as it is (a released set of every
    /// module's lock around an interpreter's dispatch) costs no copy of it.
    fn tokens_of(&self, a: SetId, lock: Lock) -> impl Iterator<Item = &Held> {
        let set = &self.sets[a];
        set[set.partition_point(|h| h.lock < lock)..]
            .iter()
            .take_while(move |h| h.lock == lock)
    }

    /// Whether `a` has every token of holding `lock` once in `mode`.
    fn has_tokens(&self, a: SetId, lock: Lock, mode: Mode) -> bool {
        Held::tokens(mode)
            .iter()
            .all(|&m| self.tokens_of(a, lock).any(|h| *h == Held::new(lock, m)))
    }

    /// Whether `a` holds `lock` exclusively.
    pub fn holds_exclusively(&self, a: SetId, lock: Lock) -> bool {
        a != Self::ALL && self.sets[a].contains(&Held::new(lock, Mode::Exclusive))
    }

    /// Whether `a` holds `lock` twice ([`Held::again`]).
    fn holds_again(&self, a: SetId, lock: Lock) -> bool {
        a != Self::ALL && self.sets[a].iter().any(|h| h.lock == lock && h.again)
    }

    /// The set with the second hold of `lock` added, or removed.
    fn set_again(&mut self, a: SetId, lock: Lock, again: bool) -> SetId {
        if a == Self::ALL {
            return a;
        }
        let token = Held {
            lock,
            mode: Mode::Exclusive,
            again: true,
        };
        let mut v: Vec<Held> = self.sets[a]
            .iter()
            .copied()
            .filter(|h| *h != token)
            .collect();
        if again {
            v.push(token);
        }
        self.intern(v)
    }

    /// The set with the tokens of holding `lock` in `mode` removed.
    pub fn remove(&mut self, a: SetId, lock: Lock, mode: Mode) -> SetId {
        let tokens = Held::tokens(mode);
        if a == Self::ALL || !self.tokens_of(a, lock).any(|h| tokens.contains(&h.mode)) {
            return a;
        }
        let v: Vec<Held> = self.sets[a]
            .iter()
            .copied()
            .filter(|h| h.lock != lock || !tokens.contains(&h.mode))
            .collect();
        self.intern(v)
    }

    /// The set with every token's lock renamed by `f` (dropped where `f` gives `None`).
    pub fn map(&mut self, a: SetId, mut f: impl FnMut(Lock) -> Option<Lock>) -> SetId {
        if a == Self::ALL {
            return a;
        }
        let v: Vec<Held> = self.sets[a]
            .clone()
            .into_iter()
            .filter_map(|h| f(h.lock).map(|lock| Held { lock, ..h }))
            .collect();
        self.intern(v)
    }
}

/// What the lock sets are computed for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Holds {
    /// The locks that protect accesses (the race check): linear locks only, a lock that stands
    /// for several run-time locks protects nothing.
    Protection,
    /// The locks a thread holds when it makes a lock call (the deadlock check's lock order):
    /// every lock a lock call took ([`super::Event::Acquire`] with its call), linear or not, a
    /// non-linear one standing for some lock of its label, and one that stands for no lock the
    /// program made ([`Linearity::is_ungrounded`]), which the deadlock check takes for any lock.
    Order,
}

/// The lock state at a program point, relative to the function's entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Must have been acquired since entry; `None` when the point is unreachable (⊤).
    pub held: Option<SetId>,
    /// May have been released since entry.
    pub released: SetId,
    /// May have been acquired since entry, on some path through this function and its callees
    /// (a call adds its callee's may summary): kept for [`Holds::Order`] only, empty otherwise.
    pub may_held: SetId,
}

impl State {
    pub const ENTRY: State = State {
        held: Some(LockSets::EMPTY),
        released: LockSets::EMPTY,
        may_held: LockSets::EMPTY,
    };
    pub const TOP: State = State {
        held: None,
        released: LockSets::EMPTY,
        may_held: LockSets::EMPTY,
    };

    fn join(self, other: State, sets: &mut LockSets) -> State {
        let held = match (self.held, other.held) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) => Some(sets.intersect(a, b)),
        };
        let may_held = match (self.held, other.held) {
            (None, _) => other.may_held,
            (_, None) => self.may_held,
            _ => sets.union(self.may_held, other.may_held),
        };
        State {
            held,
            released: sets.union(self.released, other.released),
            may_held,
        }
    }
}

/// Locksets of every event and summaries of every function.
pub struct Locksets {
    pub sets: LockSets,
    /// The state before each event: per function, block and event index.
    pub before: IndexVec<FnId, Vec<Vec<State>>>,
    /// The state at the start and at the end of each block: per function and block (⊤ where no
    /// path reaches).
    pub bounds: IndexVec<FnId, Vec<(State, State)>>,
    pub summary: IndexVec<FnId, State>,
}

impl Locksets {
    /// The lock state before event `index` of block `block` of `f`; ⊤ (no path) where there is
    /// none.
    pub fn state_before(&self, f: FnId, block: u32, index: u32) -> State {
        self.before[f]
            .get(block as usize)
            .and_then(|b| b.get(index as usize))
            .copied()
            .unwrap_or(State::TOP)
    }

    /// Per function `f`: whether some call chain from `f` up through its callers (not through
    /// the forks that start it) passes a reachable call made holding a lock, on some path or on
    /// every path. Where none does, no caller adds a lock to what `f` does: a lock call of `f`'s
    /// own thread that holds no lock keeps holding none in every caller, so the lock order
    /// drops it and all it derives ([`super::order`]), and what `f`'s own thread released is
    /// read by no caller, so the correlation facts leave it out ([`super::facts`]).
    pub fn lock_holding_callers(&self, s: &Structure) -> IndexVec<FnId, bool> {
        let n = s.callers.len();
        let mut gains: IndexVec<FnId, bool> = IndexVec::from_elem_n(false, n);
        let mut callees: IndexVec<FnId, Vec<FnId>> = IndexVec::from_elem_n(Vec::new(), n);
        let mut work = Vec::new();
        for (f, points) in s.callers.iter_enumerated() {
            for pt in points {
                callees[pt.caller].push(f);
                let state = self.state_before(pt.caller, pt.block, pt.index);
                let holds = state.held.is_some_and(|must| {
                    must != LockSets::EMPTY || state.may_held != LockSets::EMPTY
                });
                if holds && !gains[f] {
                    gains[f] = true;
                    work.push(f);
                }
            }
        }
        while let Some(f) = work.pop() {
            for &g in &callees[f] {
                if !gains[g] {
                    gains[g] = true;
                    work.push(g);
                }
            }
        }
        gains
    }
}

/// Translates a callee's lock through `site`: its image, itself when not generic there, or
/// `None` for a lock local to the callee (meaningless to the caller).
pub fn translate(
    c: &Constraints,
    scopes: &ScopeTree,
    locks: &mut LockTable,
    site: Site,
    l: Lock,
) -> Option<Lock> {
    if let Some(x) = locks.image(l, site) {
        return Some(x);
    }
    if locks.generic_at_site(l, &c.sites[site], scopes) {
        None
    } else {
        Some(locks.find(l))
    }
}

/// What one lock of a callee's set is to the caller at a call site, as a [`SetTranslations`]
/// user decides from the lock's image ([`translate`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Image {
    /// Nothing the caller's set keeps (a lock local to the callee, or one not counted there).
    Dropped,
    Lock(Lock),
    /// Every lock ([`LockSets::ALL`]): a release of a lock that stands for no lock.
    Every,
}

/// Translations of lock sets through sites (an [`Image`] of each lock), memoised by set, site
/// and kind (the caller's own `bool`: held or released). The same few sets cross each call site
/// again and again.
///
/// A set is translated in two parts: the locks no site translates
/// ([`LockTable::site_invariant`]), memoised once with no site, and the others, memoised per
/// site; the translation is their union (each lock's image is its own, so that is the
/// translation of the whole). A set of global locks crossing the thousands of call points of a
/// registration function was translated once per point (the callbacks shape with its library
/// at 1M lines: 10.5 million translations for the facts alone), and a pager's released set —
/// every module's lock, released by the methods it calls through a table, and the mutex of the
/// file it was given — was copied at each of its call sites for the one lock that differs
/// (the bench's drivers shape: the locksets n^1.6 from 100k to 1M lines).
#[derive(Clone, Debug, Default)]
pub struct SetTranslations {
    memo: FxHashMap<(SetId, Option<Site>, bool), SetId>,
    /// Per set: its site-invariant locks and the others.
    parts: FxHashMap<SetId, (SetId, SetId)>,
}

impl SetTranslations {
    /// `set` as the caller at `site` sees it: each lock's image by `image`, memoised under
    /// `kind` (one `image` function per kind).
    pub fn translate(
        &mut self,
        sets: &mut LockSets,
        locks: &mut LockTable,
        set: SetId,
        site: Site,
        kind: bool,
        mut image: impl FnMut(&mut LockTable, Lock) -> Image,
    ) -> SetId {
        if set == LockSets::EMPTY || set == LockSets::ALL {
            return set;
        }
        let (invariant, variant) = self.parts(sets, locks, set);
        let everywhere = self.translate_part(sets, locks, invariant, None, kind, &mut image);
        let here = self.translate_part(sets, locks, variant, Some(site), kind, &mut image);
        sets.union(everywhere, here)
    }

    fn translate_part(
        &mut self,
        sets: &mut LockSets,
        locks: &mut LockTable,
        part: SetId,
        site: Option<Site>,
        kind: bool,
        image: &mut impl FnMut(&mut LockTable, Lock) -> Image,
    ) -> SetId {
        if part == LockSets::EMPTY {
            return part;
        }
        if let Some(&out) = self.memo.get(&(part, site, kind)) {
            return out;
        }
        let mut every = false;
        let mapped = sets.map(part, |l| match image(locks, l) {
            Image::Dropped => None,
            Image::Lock(x) => Some(x),
            Image::Every => {
                every = true;
                None
            }
        });
        let out = if every { LockSets::ALL } else { mapped };
        self.memo.insert((part, site, kind), out);
        out
    }

    /// `set`'s site-invariant locks and its others, each as a set.
    fn parts(&mut self, sets: &mut LockSets, locks: &mut LockTable, set: SetId) -> (SetId, SetId) {
        if let Some(&parts) = self.parts.get(&set) {
            return parts;
        }
        let (invariant, variant): (Vec<Held>, Vec<Held>) =
            (sets.get(set).iter()).partition(|h| locks.site_invariant(h.lock));
        let parts = if variant.is_empty() {
            (set, LockSets::EMPTY)
        } else if invariant.is_empty() {
            (LockSets::EMPTY, set)
        } else {
            (sets.intern(invariant), sets.intern(variant))
        };
        self.parts.insert(set, parts);
        parts
    }

    /// Whether no site changes `set`: every lock of it is [`LockTable::site_invariant`] (or it
    /// is every lock, `LockSets::map`'s fixed point).
    pub fn invariant(&mut self, sets: &mut LockSets, locks: &mut LockTable, set: SetId) -> bool {
        set == LockSets::ALL || self.parts(sets, locks, set).1 == LockSets::EMPTY
    }

    /// How many translations are memoised.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }
}

/// What [`Ctx::analyse`] finds in one function: the states before each event, at the start and
/// end of each block, and the summary.
type Analysed = (Vec<Vec<State>>, Vec<(State, State)>, State);

struct Ctx<'a> {
    c: &'a Constraints,
    scopes: &'a ScopeTree,
    locks: &'a mut LockTable,
    linearity: &'a Linearity,
    sets: LockSets,
    summary: IndexVec<FnId, State>,
    /// [`ThreadProgram::alternatives`].
    alternatives: &'a [(Site, Site)],
    /// [`ThreadProgram::relock_fails`], as lock class representatives.
    relock_fails: FxHashSet<Lock>,
    /// [`ThreadProgram::acquisitions`]: which lock calls retake a condition wait's mutex.
    acquisitions: &'a IndexVec<AcqId, AcquireInfo>,
    holds: Holds,
    /// [`Ctx::call_effect`]'s translations of summaries: a call is stepped over once per
    /// round of its cycle of calls, and an interpreter's dispatch returns having released
    /// every module's lock, a set as large as the program that each call copied again.
    translations: SetTranslations,
    /// What a call's released set keeps of its callee's ([`Releases`]).
    releases: Releases,
}

/// What the released sets of a computation keep of the locks a callee released.
enum Releases {
    /// Nothing: a call releases none of its caller's locks. The held sets are then a superset
    /// of the real ones at every point (each step is monotone in them, and a call's step only
    /// ever takes locks out of them through the callee's released set); [`carried_locks`]
    /// reads them.
    Ignored,
    /// A lock that no site translates is kept only if it is one of these: the locks some
    /// held set of the computation may hold before a call or at the end of a block.
    Carried(FxHashSet<Lock>),
}

/// Whether a lock (a class representative, or a callee's lock's image) is ever held in sets
/// computed for `holds`.
fn counted(holds: Holds, linearity: &Linearity, locks: &mut LockTable, l: Lock) -> bool {
    match holds {
        Holds::Protection => linearity.is_linear(locks, l),
        Holds::Order => true,
    }
}

impl Ctx<'_> {
    /// Steps over a block's events from `st`, recording the state before each in `before`.
    /// A condition wait's release and retake are one step for the held locks (see the module
    /// doc): after the pair they are what they were before it; the state between the two, which
    /// the lock order reads (the locks the retake waits for holding), is the release's.
    fn step_block(
        &mut self,
        events: &[Event],
        mut st: State,
        mut before: Option<&mut Vec<State>>,
    ) -> State {
        // The state before the previous event: before a wait's release when `e` is its retake.
        let mut before_previous = st;
        // The call through a pointer whose targets are being stepped, with the state before
        // them and what those stepped so far may have left.
        let mut alternatives: Option<(Site, State, State)> = None;
        for (i, e) in events.iter().enumerate() {
            let call = self.alternative_call(e);
            if let Some((group, start, joined)) = alternatives {
                if call == Some(group) {
                    st = start;
                } else {
                    st = joined;
                    alternatives = None;
                }
            }
            if let Some(before) = before.as_deref_mut() {
                before.push(st);
            }
            if let Some(group) = call {
                let after = self.alternative(st, e);
                alternatives = Some(match alternatives {
                    Some((_, start, joined)) => (group, start, joined.join(after, &mut self.sets)),
                    None => (group, st, after),
                });
                before_previous = st;
                continue;
            }
            let mut next = self.step(st, e);
            if i > 0 && next.held.is_some() && self.retakes(&events[i - 1], e) {
                next.held = before_previous.held;
                next.released = before_previous.released;
            }
            before_previous = st;
            st = next;
        }
        match alternatives {
            Some((_, _, joined)) => joined,
            None => st,
        }
    }

    /// The call through a pointer that `e` calls one target of, if any.
    fn alternative_call(&self, e: &Event) -> Option<Site> {
        let Event::Call { site, .. } = *e else {
            return None;
        };
        super::alternative_in(self.alternatives, site)
    }

    /// The state after one target `e` of a call through a pointer, from the state before the
    /// call: only that target runs, so the locks it takes are held after the call only if every
    /// other target takes them too ([`State::join`]), and a target that never returns adds no
    /// path. The paper types such a call with the one function type the pointer carries;
    /// running each target from the same state is that, per target, with nothing of another
    /// target's locks taken for held.
    fn alternative(&mut self, st: State, e: &Event) -> State {
        let Event::Call { callee, .. } = *e else {
            unreachable!("only calls are targets of a call through a pointer")
        };
        if self.summary[callee].held.is_none() {
            return State::TOP;
        }
        self.step(st, e)
    }

    /// Whether `acquire` retakes the lock that `release`, just before it, released: the two
    /// halves of one condition wait.
    fn retakes(&mut self, release: &Event, acquire: &Event) -> bool {
        match (*release, *acquire) {
            (Event::Release(r), Event::Acquire(a, _, Some(call))) => {
                self.acquisitions[call].retakes && self.locks.find(r) == self.locks.find(a)
            }
            _ => false,
        }
    }

    fn step(&mut self, state: State, e: &Event) -> State {
        let mut next = self.step_must(state, e);
        if self.holds == Holds::Order && next.held.is_some() && state.held.is_some() {
            next.may_held = self.step_may(state.may_held, e);
        }
        next
    }

    /// [`Ctx::step`] for `may_held`: as for `held`, but a release through an unknown lock
    /// releases none of them for sure, and a call adds the locks its callee may hold when it
    /// returns (its summary's `may_held`) to those the callee did not release.
    fn step_may(&mut self, may: SetId, e: &Event) -> SetId {
        match *e {
            Event::Acquire(l, mode, call) => {
                let l = self.locks.find(l);
                if !(call.is_some() && counted(self.holds, self.linearity, self.locks, l)) {
                    may
                } else if !self.relock_fails.contains(&l)
                    && mode == Mode::Exclusive
                    && self.sets.holds_exclusively(may, l)
                {
                    self.sets.set_again(may, l, true)
                } else {
                    self.sets.insert(may, l, mode)
                }
            }
            Event::Release(l) if self.linearity.is_ungrounded(self.locks, l) => may,
            Event::Release(l) => {
                let l = self.locks.find(l);
                if !self.relock_fails.contains(&l) && self.sets.holds_again(may, l) {
                    self.sets.set_again(may, l, false)
                } else {
                    self.sets.remove(may, l, Mode::Exclusive)
                }
            }
            Event::Call { site, callee, .. } => match self.call_effect(site, callee) {
                Some((_, g_rel)) => {
                    let g_may = self.summary[callee].may_held;
                    // Held on some path: translated as the must-held set is.
                    let g_may = self.translate_summary(g_may, site, true);
                    let kept = self.sets.minus(may, g_rel);
                    self.sets.union(kept, g_may)
                }
                None => may,
            },
            Event::Fork { .. }
            | Event::Join(_)
            | Event::Access(_)
            | Event::Alloc(_)
            | Event::BarrierWait
            | Event::HandshakeSet(_)
            | Event::HandshakeWait(_) => may,
        }
    }

    /// A call's effect on the caller's locks: the locks its callee must hold when it returns
    /// and those it may have released, translated through `site`; `None` when it never
    /// returns.
    fn call_effect(&mut self, site: Site, callee: FnId) -> Option<(SetId, SetId)> {
        let s = self.summary[callee];
        let g_held = s.held?;
        let g_released = match self.releases {
            Releases::Ignored => LockSets::EMPTY,
            Releases::Carried(_) => self.translate_summary(s.released, site, false),
        };
        Some((self.translate_summary(g_held, site, true), g_released))
    }

    /// A callee's must-held (`held`) or may-released set as the caller at `site` sees it,
    /// memoised ([`SetTranslations`]). A held lock whose image is not counted for
    /// [`Ctx::holds`] is dropped; a released lock whose image stands for no lock the program
    /// made ([`Linearity::is_ungrounded`]) releases every lock, and one no held set ever
    /// carries ([`carried_locks`]) is dropped.
    fn translate_summary(&mut self, set: SetId, site: Site, held: bool) -> SetId {
        let (c, scopes, linearity, holds) = (self.c, self.scopes, self.linearity, self.holds);
        let releases = &self.releases;
        let carried = |locks: &mut LockTable, x: Lock| match releases {
            Releases::Carried(carried) => {
                !locks.site_invariant(x) || carried.contains(&locks.find(x))
            }
            Releases::Ignored => true,
        };
        let image = |locks: &mut LockTable, l| match translate(c, scopes, locks, site, l) {
            None => Image::Dropped,
            Some(x) if held && !counted(holds, linearity, locks, x) => Image::Dropped,
            Some(x) if !held && linearity.is_ungrounded(locks, x) => Image::Every,
            Some(x) if !held && !carried(locks, x) => Image::Dropped,
            Some(x) => Image::Lock(x),
        };
        (self.translations).translate(&mut self.sets, self.locks, set, site, held, image)
    }

    /// [`Ctx::step`] for `held` and `released`.
    fn step_must(&mut self, state: State, e: &Event) -> State {
        let Some(held) = state.held else { return state };
        match *e {
            // Locking again a lock that counts its holds (a recursive mutex) holds it twice.
            // Holds beyond the second are not counted, so their releases may end the hold too
            // early, which only drops locks.
            Event::Acquire(l, mode, call) => {
                let l = self.locks.find(l);
                let counts = !self.relock_fails.contains(&l);
                let lock_call = call.is_some() || self.holds == Holds::Protection;
                let held = if !(lock_call && counted(self.holds, self.linearity, self.locks, l)) {
                    held
                } else if counts && mode == Mode::Exclusive && self.sets.holds_exclusively(held, l)
                {
                    self.sets.set_again(held, l, true)
                } else {
                    self.sets.insert(held, l, mode)
                };
                // A counting lock released since entry stays released: the caller's hold is gone
                // even if this function takes the lock again, and the release that undoes this
                // acquisition (below) must not bring it back.
                let released = if counts {
                    state.released
                } else {
                    self.sets.remove(state.released, l, mode)
                };
                State {
                    held: Some(held),
                    released,
                    ..state
                }
            }
            // A release through a lock that stands for no lock the program made (an unknown
            // or uninitialised pointer) may release any of them.
            Event::Release(l) if self.linearity.is_ungrounded(self.locks, l) => State {
                held: Some(LockSets::EMPTY),
                released: LockSets::ALL,
                ..state
            },
            // The release of a counting lock this function holds twice, or acquired itself,
            // undoes that acquisition: the exclusive hold the caller had is still there (with a
            // recursive mutex), or this point is never reached (a normal mutex or spin lock
            // locked by its holder blocks forever). So the caller's exclusive hold is not
            // released; a shared one, which is not counted, is.
            Event::Release(l)
                if !self.relock_fails.contains(&self.locks.find(l))
                    && self.sets.holds_exclusively(held, self.locks.find(l)) =>
            {
                let l = self.locks.find(l);
                let held = if self.sets.holds_again(held, l) {
                    self.sets.set_again(held, l, false)
                } else {
                    self.sets.remove(held, l, Mode::Exclusive)
                };
                State {
                    held: Some(held),
                    released: self.sets.insert(state.released, l, Mode::Shared),
                    ..state
                }
            }
            Event::Release(l) => {
                let l = self.locks.find(l);
                State {
                    held: Some(self.sets.remove(held, l, Mode::Exclusive)),
                    released: self.sets.insert(state.released, l, Mode::Exclusive),
                    ..state
                }
            }
            Event::Call { site, callee, .. } => {
                let Some((g_held, g_rel)) = self.call_effect(site, callee) else {
                    return State::TOP;
                };
                let kept = self.sets.minus(held, g_rel);
                let held = self.sets.union(kept, g_held);
                // As at an acquire: a counting lock released before the call stays released
                // when the callee takes it again.
                let relock_fails = &self.relock_fails;
                let retaken = self
                    .sets
                    .map(g_held, |l| relock_fails.contains(&l).then_some(l));
                let rel_kept = self.sets.minus(state.released, retaken);
                State {
                    held: Some(held),
                    released: self.sets.union(rel_kept, g_rel),
                    ..state
                }
            }
            Event::Fork { .. }
            | Event::Join(_)
            | Event::Access(_)
            | Event::Alloc(_)
            | Event::BarrierWait
            | Event::HandshakeSet(_)
            | Event::HandshakeWait(_) => state,
        }
    }

    /// For the lock order, at the end of each block that branches on a stable variable
    /// ([`super::StableTest`]), the state of the paths on which the variable is zero, or `None`
    /// when no such path reaches it: the function run with the edges taken when it is not zero
    /// cut. Each path takes the same side at every test of the variable, so a path leaving
    /// such a test where the variable is zero took none of those edges, and holds on some path
    /// only what those runs hold. `if (use_lock) lock(&m); … if (use_lock) unlock(&m);` held
    /// `m` after the second test on the path that skipped both, and after every call of the
    /// function, since a call adds its callee's may summary (automount's `do_spawn`).
    ///
    /// Beyond the paper, whose lock sets are path-insensitive; only the may-held sets of the
    /// lock order take it, and a side no path takes passes nothing on.
    fn unset_ends(&mut self, blocks: &[super::EventBlock]) -> FxHashMap<u32, Option<State>> {
        let mut ends = FxHashMap::default();
        if self.holds != Holds::Order {
            return ends;
        }
        let mut vars: Vec<u32> = (blocks.iter())
            .filter_map(|b| b.stable_test.map(|t| t.var))
            .collect();
        vars.sort_unstable();
        vars.dedup();
        for v in vars {
            let tests = |b: &super::EventBlock| b.stable_test.filter(|t| t.var == v);
            let cut: Vec<Vec<u32>> = (blocks.iter())
                .map(|b| match tests(b) {
                    Some(t) => b
                        .succs
                        .iter()
                        .copied()
                        .filter(|&s| s != t.when_set)
                        .collect(),
                    None => b.succs.clone(),
                })
                .collect();
            let input = dataflow::forward(
                self,
                blocks.len(),
                |b| &cut[b],
                State::ENTRY,
                |ctx, b, st| ctx.block_end(&blocks[b].events, st),
                Self::join_into,
            );
            for (b, block) in blocks.iter().enumerate() {
                if tests(block).is_some() {
                    let end = input[b].and_then(|st| self.block_end(&block.events, st));
                    ends.insert(b as u32, end);
                }
            }
        }
        ends
    }

    /// The state at the end of a block from the state at its start; `None` where no path leaves
    /// it (⊤, `held: None`, is "no path").
    fn block_end(&mut self, events: &[Event], start: State) -> Option<State> {
        let end = self.step_block(events, start, None);
        end.held.map(|_| end)
    }

    /// Joins `incoming` into `into`; whether `into` changed.
    fn join_into(&mut self, into: &mut State, incoming: &State) -> bool {
        let joined = into.join(*incoming, &mut self.sets);
        std::mem::replace(into, joined) != joined
    }

    /// Runs one function to a fixpoint and returns its per-event states, the states at the start
    /// and end of each block, and its summary.
    fn analyse(&mut self, p: &ThreadProgram, f: FnId) -> Analysed {
        let blocks = &p.funcs[f].blocks;
        if blocks.is_empty() {
            return (Vec::new(), Vec::new(), State::ENTRY);
        }
        let n = blocks.len();
        let unset = self.unset_ends(blocks);
        // ⊤ (`held: None`) is "no path": a block no path reaches has no state, and one whose end
        // no path reaches passes nothing on.
        let input = dataflow::forward_on_edges(
            self,
            n,
            |b| &blocks[b].succs,
            State::ENTRY,
            |ctx, b, st| ctx.block_end(&blocks[b].events, st),
            Self::join_into,
            |_, from, to, out| {
                let test = blocks[from].stable_test?;
                if to as u32 == test.when_set {
                    return None;
                }
                let end = unset.get(&(from as u32))?;
                Some(end.map(|end| State {
                    may_held: end.may_held,
                    ..*out
                }))
            },
        );
        let mut before = Vec::with_capacity(n);
        let mut bounds = Vec::with_capacity(n);
        let mut summary = State::TOP;
        for (b, block) in blocks.iter().enumerate() {
            let start = input[b].unwrap_or(State::TOP);
            let mut states = Vec::with_capacity(block.events.len());
            let st = self.step_block(&block.events, start, Some(&mut states));
            bounds.push((start, st));
            if block.returns {
                summary = summary.join(st, &mut self.sets);
            }
            before.push(states);
        }
        (before, bounds, summary)
    }
}

/// Computes the locksets of every function of `p`, for what `holds` says.
pub fn compute(
    c: &Constraints,
    scopes: &ScopeTree,
    locks: &mut LockTable,
    linearity: &Linearity,
    p: &ThreadProgram,
    s: &Structure,
    holds: Holds,
) -> Locksets {
    let ignoring = Ctx::new(c, scopes, locks, linearity, p, holds, Releases::Ignored).solve(p, s);
    let carried = carried_locks(locks, p, &ignoring);
    drop(ignoring);
    Ctx::new(
        c,
        scopes,
        locks,
        linearity,
        p,
        holds,
        Releases::Carried(carried),
    )
    .solve(p, s)
}

/// The locks, as class representatives, that the held sets of `ignoring` (computed with no call
/// releasing a lock of its caller, [`Releases::Ignored`]) hold before some call, on every path
/// or on some, or at the end of some block.
///
/// Beyond RELAY, whose released sets keep every lock a callee released: a released set is only
/// ever taken out of a held set before a call — by the call's own step, by the correlation
/// facts' and the lock order's contexts through it ([`super::facts`], [`super::order`]) — or
/// compared with the locks held at the end of a block ([`super::leaks`]). A lock no such held
/// set holds, and that no site translates into another, changes nothing in any released set
/// it is in, so the released sets leave it out. `ignoring`'s held sets hold at least what the
/// real ones do at every point, so these are at least the locks the real ones hold there. A
/// pager that calls every module's I/O methods through a table returned having released every
/// module's counter lock, and each of its callers' released sets was that set again with a
/// few locks of its own: the bench's drivers shape at 1M lines made 9,588 sets of 360 locks.
fn carried_locks(locks: &mut LockTable, p: &ThreadProgram, ignoring: &Locksets) -> FxHashSet<Lock> {
    let mut carried = FxHashSet::default();
    let mut carry = |set: Option<SetId>, locks: &mut LockTable| {
        for h in set.map_or(&[][..], |set| ignoring.sets.get(set)) {
            carried.insert(locks.find(h.lock));
        }
    };
    for (f, body) in p.funcs.iter_enumerated() {
        for (b, block) in body.blocks.iter().enumerate() {
            for (i, e) in block.events.iter().enumerate() {
                if matches!(e, Event::Call { .. }) {
                    let st = ignoring.state_before(f, b as u32, i as u32);
                    carry(st.held, locks);
                    carry(st.held.map(|_| st.may_held), locks);
                }
            }
            carry(ignoring.bounds[f][b].1.held, locks);
        }
    }
    carried
}

impl<'a> Ctx<'a> {
    fn new(
        c: &'a Constraints,
        scopes: &'a ScopeTree,
        locks: &'a mut LockTable,
        linearity: &'a Linearity,
        p: &'a ThreadProgram,
        holds: Holds,
        releases: Releases,
    ) -> Ctx<'a> {
        let relock_fails = p.relock_fails.iter().map(|&l| locks.find(l)).collect();
        Ctx {
            c,
            scopes,
            locks,
            linearity,
            sets: LockSets::new(),
            summary: IndexVec::from_elem_n(State::TOP, p.funcs.len()),
            alternatives: &p.alternatives,
            relock_fails,
            translations: SetTranslations::default(),
            acquisitions: &p.acquisitions,
            holds,
            releases,
        }
    }

    /// Analyses every function, callees first, each recursive component to its fixpoint.
    fn solve(mut self, p: &ThreadProgram, s: &Structure) -> Locksets {
        let n = p.funcs.len();
        let mut before: IndexVec<FnId, Vec<Vec<State>>> = IndexVec::from_elem_n(Vec::new(), n);
        let mut bounds: IndexVec<FnId, Vec<(State, State)>> = IndexVec::from_elem_n(Vec::new(), n);
        for scc in &s.sccs {
            loop {
                crate::budget::poll();
                let mut changed = false;
                for &f in scc {
                    let (b, ends, summary) = self.analyse(p, f);
                    before[f] = b;
                    bounds[f] = ends;
                    if summary != self.summary[f] {
                        self.summary[f] = summary;
                        changed = true;
                    }
                }
                if !changed || (scc.len() == 1 && !s.recursive[scc[0]]) {
                    break;
                }
            }
        }
        Locksets {
            sets: self.sets,
            before,
            bounds,
            summary: self.summary,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::SiteKind;
    use crate::ids::Idx;
    use crate::locks::unify_all;
    use crate::scope::Scope;

    #[test]
    fn a_site_invariant_lock_is_itself_through_every_site() {
        // A global lock with no image is translated to its class at every site (the lock-set
        // translations are memoised once for such sets); a generic lock is not invariant, nor
        // is a global one instantiated somewhere, nor one opened by an unpack.
        let mut c = Constraints::new();
        let f = c.new_scope(Scope::ROOT);
        let global = c.new_lock(Scope::ROOT);
        let twin = c.new_lock(Scope::ROOT);
        let generic = c.new_lock(f);
        let image = c.new_lock(Scope::ROOT);
        let i = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        let j = c.new_site(f, Scope::ROOT, SiteKind::Inst);
        c.lock_eq(global, twin);
        c.lock_inst(generic, i, image);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let mut t = unify_all(&c, &scopes);
        assert!(t.site_invariant(global));
        assert!(t.site_invariant(image));
        assert!(!t.site_invariant(generic));
        for site in [i, j] {
            let expected = Some(t.find(twin));
            assert_eq!(translate(&c, &scopes, &mut t, site, global), expected);
        }
        assert_ne!(
            translate(&c, &scopes, &mut t, i, generic),
            translate(&c, &scopes, &mut t, j, generic)
        );
    }

    #[test]
    fn released_sets_keep_only_the_locks_held_across_a_call() {
        // `fn1` updates a counter under `counter`; `fn2` releases its caller's `big`; `fn3`
        // calls both, and `main` calls `fn3` holding `big`. `counter` is held before no call
        // and at the end of no block, so `fn3`'s released set leaves it out; `big` is held
        // before `main`'s call, so it stays, and `main` no longer holds it after the call.
        let mut c = Constraints::new();
        let scopes: Vec<Scope> = (0..4).map(|_| c.new_scope(Scope::ROOT)).collect();
        let (counter, big) = (c.new_lock(Scope::ROOT), c.new_lock(Scope::ROOT));
        let mut call = |callee: usize, caller: usize| Event::Call {
            site: c.new_site(scopes[callee], scopes[caller], SiteKind::Inst),
            callee: FnId::new(callee),
            handle: None,
        };
        let funcs = [
            vec![Event::Acquire(big, Mode::Exclusive, None), call(3, 0)],
            vec![
                Event::Acquire(counter, Mode::Exclusive, None),
                Event::Release(counter),
            ],
            vec![Event::Release(big)],
            vec![call(1, 3), call(2, 3)],
        ];
        let p = ThreadProgram {
            main: Some(FnId(0)),
            funcs: (funcs.into_iter().zip(&scopes))
                .map(|(events, &scope)| super::super::FnBody {
                    scope,
                    blocks: vec![super::super::EventBlock {
                        events,
                        succs: Vec::new(),
                        returns: true,
                        lock_failure: false,
                        stable_test: None,
                    }],
                })
                .collect(),
            ..ThreadProgram::default()
        };
        let mut tree = c.scopes.clone();
        tree.freeze();
        let s = Structure::new(&p);
        let linear = Linearity::all_linear(super::super::linearity::Grounding::everything());
        let mut table = unify_all(&c, &tree);
        let ls = compute(&c, &tree, &mut table, &linear, &p, &s, Holds::Protection);
        let mut locks_of = |set: SetId| -> Vec<Lock> {
            let mut v: Vec<Lock> = ls
                .sets
                .get(set)
                .iter()
                .map(|h| table.find(h.lock))
                .collect();
            v.dedup();
            v
        };
        assert_eq!(locks_of(ls.summary[FnId(1)].released), vec![counter]);
        assert_eq!(locks_of(ls.summary[FnId(3)].released), vec![big]);
        assert_eq!(ls.summary[FnId(0)].held, Some(LockSets::EMPTY));
    }
}
