//! The lock order: every lock call, with the locks held when it is made, carried up every call
//! chain to `main` as [`super::facts`] carries accesses — the input of the deadlock check
//! ([`super::deadlock`]).
//!
//! A *call fact* says that a thread, running a function, makes a lock call that waits for a lock
//! while it may hold others (`held`, relative to the function's entry as in
//! [`super::locksets`], computed for the lock order: [`Holds::Order`], the locks held on some
//! path there, `State::may_held`). Through each call of the function the fact
//! takes the caller's view — the lock and the held locks renamed by their images at the call's
//! site, the caller's locks added unless the callee may release them — and through each fork it
//! becomes the child thread's, with none of the parent's locks. Like an access, it keeps which
//! thread makes it, where and after what ([`Ctx`]), so that the check can ask whether two lock
//! calls may be made at the same time ([`super::check::Concurrency`]).
//!
//! A fact stops where its lock stops meaning one lock: a lock of the callee's own run (a mutex
//! local to it, or allocated there and never stored where the caller can name it) has no image,
//! and above the call each run's lock is a different one. Its deadlocks, if any, are among the
//! threads that run saw, and are found at that function.
//!
//! A fact that holds no lock makes no edge of its level's lock-order graph and waits for no lock
//! its thread holds: only the facts a caller turns into ones holding locks matter. So such a
//! fact stops at each fork it would cross (above the fork it is another thread's, to which no
//! caller adds a lock), and is not made at all in a function no call chain of whose thread
//! holds a lock at a call on the way ([`Locksets::lock_holding_callers`]): its derivations
//! would all hold none. Both drop only facts nothing reads, so the lock order's reports are
//! those of the full propagation. Try-locks never wait: they hold their lock for what follows,
//! but make no fact.
//!
//! A lock call that waits for a lock no lock call is made holding, at any level, makes no fact
//! ([`super::unheld`]): it is on no cycle of any level's lock order and is no self-deadlock.
//!
//! A fact's locks are a [`LockState`]: besides the locks held on some path (the edges) and on
//! every path (self-deadlocks), the *gate*, the locks held on every path carried up with
//! their own released set, which a lock one path released and another took again leaves out
//! ([`with_caller`]). Around a cycle of calls made holding locks, every path holds its own
//! subset of them; past [`widen::ORDER_VARIANTS`] states of one lock call in one function of
//! the cycle, a new one is their join ([`Prop::widen`]), which reports every deadlock they
//! would.
//!
//! This module never decides a deadlock and never names a lock for a reader.

use super::check::Ctx;
use super::contexts::Contexts;
use super::facts::Thread;
use super::linearity::Linearity;
use super::locksets::{translate, Image, LockSets, Locksets, SetId, SetTranslations, State};
use super::mhp::{HandleSets, Mhp, SiteSets};
use super::nest::Nests;
use super::phases::Phase;
use super::structure::{CallPoint, Structure};
use super::widen::{self, Join, Widening};
use super::{AcqId, Event, FnId, Mode, ThreadProgram};
use crate::constraints::{Constraints, Lock, Site};
use crate::ids::IndexVec;
use crate::locks::LockTable;
use crate::scope::ScopeTree;
use crate::stats::Stats;

/// A lock call as seen from one function: which call, the lock it waits for and how, the locks
/// held (and, for the function's own thread, those it may have released since its entry).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallFact {
    pub func: FnId,
    pub acq: AcqId,
    /// The lock's class representative, as `func` names it.
    pub lock: Lock,
    pub mode: Mode,
    /// The locks held at the call, relative to `func`'s entry.
    pub state: LockState,
    pub ctx: Ctx,
}

impl CallFact {
    /// Whether the call holds no lock, on any path: such a fact is an edge of no lock-order
    /// graph and no self-deadlock, and matters only where a caller adds locks to it.
    fn holds_none(&self) -> bool {
        self.state.held == LockSets::EMPTY && self.state.must_held == LockSets::EMPTY
    }
}

/// Where a fact comes from: the fact it was first derived from, and which of that fact's
/// function's calls ([`Structure::callers`]) or forks ([`Structure::forkers`]) it crossed. Eight
/// bytes, not a [`CallPoint`] and an index (32): there is one per fact, millions on a large
/// program, and they are read only for the few facts a deadlock reports.
#[derive(Copy, Clone, Debug)]
struct Derivation {
    from: u32,
    /// The position among the callers, or among the forkers with [`Derivation::FORK`] set.
    step: u32,
}

impl Derivation {
    const OWN: Derivation = Derivation {
        from: u32::MAX,
        step: 0,
    };
    const FORK: u32 = 1 << 31;

    fn through(from: usize, step: usize, fork: bool) -> Derivation {
        assert!(
            step < Self::FORK as usize,
            "fewer than 2^31 calls of a function"
        );
        let step = step as u32;
        Derivation {
            from: u32::try_from(from).expect("fewer than 2^32 lock-call facts"),
            step: if fork { step | Self::FORK } else { step },
        }
    }
}

/// The lock state of a [`CallFact`], relative to its function's entry: the sets a call changes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LockState {
    /// The locks held on some path to the call ([`super::locksets::State::may_held`]): the
    /// lock order.
    pub held: SetId,
    /// The locks held on every path to it: a self-deadlock needs its lock held for sure, or a
    /// lock taken and released under one condition (`if (c) lock(m); … if (c) unlock(m);
    /// lock(m);`) would deadlock with itself. Above the call's own function a caller's lock
    /// counts unless `released` says so, which leaves out a lock one path released and another
    /// took again: this may count a lock some path does not hold, which can only report a
    /// self-deadlock more, never hide one.
    pub must_held: SetId,
    /// Only meaningful while the thread is `Current` (the caller may hold more locks).
    pub released: SetId,
    /// The locks that may gate a cycle through the call ([`super::deadlock`]): those held on
    /// every path to it. `must_held` says so of the call's own function, but above it, where
    /// a caller's locks are added unless some path released them, only `gate` is made with
    /// the locks some path released without taking them again ([`with_caller`]); in a
    /// widened fact ([`Prop::widen`]) it is the locks all the facts it stands for gate by.
    pub gate: SetId,
    /// What the thread may have released, for `gate`: the locks some path released and did not
    /// take again.
    pub gate_released: SetId,
}

/// What a caller holds at a call, relative to its own entry ([`State`]).
#[derive(Copy, Clone, Debug)]
struct CallerState {
    /// On some path.
    held: SetId,
    /// On every path.
    must_held: SetId,
    released: SetId,
}

impl LockState {
    const EMPTY: LockState = LockState::with_sets([LockSets::EMPTY; 5]);

    /// How [`Prop::widen`] joins each set of [`LockState::sets`]: the join makes every edge
    /// (held ∪) and every self-deadlock (must-held ∪) of the states it stands for, and adds
    /// a caller's lock only where they all do (released ∩); it gates by no lock one of them
    /// does not (gate ∩, with every lock one of them released for it, ∪).
    const JOINS: [Join; 5] = [Join::May, Join::May, Join::Must, Join::Must, Join::May];

    const fn with_sets([held, must_held, released, gate, gate_released]: [SetId; 5]) -> Self {
        LockState {
            held,
            must_held,
            released,
            gate,
            gate_released,
        }
    }

    fn sets(self) -> [SetId; 5] {
        [
            self.held,
            self.must_held,
            self.released,
            self.gate,
            self.gate_released,
        ]
    }

    /// The state of a lock call of the function's own thread, its sets named as the caller
    /// names them, as the caller sees it with its own locks at the call ([`with_caller`]).
    /// Monotone: a state that holds more locks, has released fewer and gates by fewer (with
    /// more released for its gate) than another stays so through every call, so a widened
    /// fact keeps standing for the facts it joined all the way up.
    fn seen_by(self, sets: &mut LockSets, caller: CallerState) -> LockState {
        let must_kept = sets.minus(caller.must_held, self.released);
        let must_held = sets.union(self.must_held, must_kept);
        let (held, released) =
            with_caller(sets, self.held, self.released, caller.held, caller.released);
        let (gate, gate_released) = with_caller(
            sets,
            self.gate,
            self.gate_released,
            caller.must_held,
            caller.released,
        );
        LockState {
            held,
            must_held,
            released,
            gate,
            gate_released,
        }
    }
}

/// A callee's held and released sets (named as the caller names them) as the caller sees them,
/// with the caller's at the call (paper §3.1, "Inferring Correlations"): `held' = held ∪
/// (caller's held − released)`, and `released' = released ∪ (caller's released − held')` —
/// what the caller released before the call and the callee did not take again.
///
/// The lock order keeps two such pairs. The may-held set with the locks some path released
/// gives the edges; the locks held on every path give the gates, and their released set must
/// leave out only the locks taken again on every path: a function that releases a lock on one
/// path, and releases and retakes it on another, has released it before its call on the
/// first, where the caller's lock is no gate (`gate_released_on_one_path.c`).
fn with_caller(
    sets: &mut LockSets,
    held: SetId,
    released: SetId,
    caller_held: SetId,
    caller_released: SetId,
) -> (SetId, SetId) {
    let kept = sets.minus(caller_held, released);
    let held = sets.union(held, kept);
    let rel_kept = sets.minus(caller_released, held);
    (held, sets.union(rel_kept, released))
}

/// The hash of a call fact in [`Prop::seen`].
fn hash_fact(fact: &CallFact) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(fact)
}

/// The lock order of a program: every call fact, and the tables their ids stand for.
pub struct Order {
    pub facts: Vec<CallFact>,
    /// Per fact: the fact it was first derived from and the call or fork it crossed
    /// ([`Derivation::OWN`] for a lock call seen from its own function). Following them down
    /// gives a call path along which the fact holds, with its locks.
    derived: Vec<Derivation>,
    pub sets: LockSets,
    pub handle_sets: HandleSets,
    pub site_sets: SiteSets,
    pub nests: Nests,
    /// The lock leaks, found on the order's lock sets ([`super::leaks`]).
    pub leaks: Vec<super::leaks::LockLeak>,
}

/// What the lock order's propagation reads.
#[derive(Copy, Clone)]
pub struct OrderInputs<'a> {
    pub constraints: &'a Constraints,
    pub scopes: &'a ScopeTree,
    pub program: &'a ThreadProgram,
    pub structure: &'a Structure,
    pub linearity: &'a Linearity,
    pub mhp: &'a Mhp,
    pub stats: &'a Stats,
}

struct Prop<'a> {
    inputs: OrderInputs<'a>,
    locks: &'a mut LockTable,
    ls: Locksets,
    /// The sets and nests contexts name, and their translation.
    cx: Contexts,
    facts: Vec<CallFact>,
    derived: Vec<Derivation>,
    /// Per function, the index of each of its facts in `facts` with the fact's hash, hashed by
    /// the fact (which is stored once, there). The hash is kept beside the index so that
    /// growing a table reads no fact: read in bucket order, each was a cache miss. A table per
    /// function, not one for all: the work list carries a fact up its callers one after
    /// another, and most functions' tables are small enough to stay in the cache, where one
    /// table of every fact missed it at each probe (forks shape at 1M lines, 3.2M facts,
    /// `-j 1`: lock order 2.3–2.9 s → 1.9–2.05 s).
    seen: IndexVec<FnId, hashbrown::HashTable<(u64, u32)>>,
    work: Vec<usize>,
    /// Held sets translated through a site (`true`) and released sets (`false`).
    set_memo: SetTranslations,
    /// Per function, the facts carried through its calls, with the hash of their
    /// [`Prop::call_key`] (each stored once, in `facts`, its key computed again where two
    /// hashes meet): a fact with the key of one already carried would derive the same facts
    /// again.
    carried: IndexVec<FnId, hashbrown::HashTable<(u64, u32)>>,
    /// Per function: whether some call chain above it, up to its thread's start, makes a call
    /// holding a lock ([`Locksets::lock_holding_callers`]).
    gains_locks: IndexVec<FnId, bool>,
    /// Per function on a cycle of calls, the first fact of each *key* (a fact but its lock
    /// state) with the key's hash ([`Prop::widen`]).
    first_of_key: IndexVec<FnId, hashbrown::HashTable<(u64, u32)>>,
    /// The lock states of the keys that took more than one, by their first fact.
    widening: Widening<u32, 5>,
}

/// Computes the lock order of `p`: the lock sets for the order, then every lock call's facts.
pub fn propagate(inputs: OrderInputs<'_>, locks: &mut LockTable) -> Order {
    let OrderInputs {
        constraints: c,
        scopes,
        program: p,
        structure: s,
        linearity,
        mhp,
        stats,
    } = inputs;
    let ls = super::locksets::compute(
        c,
        scopes,
        locks,
        linearity,
        p,
        s,
        super::locksets::Holds::Order,
    );
    let gains_locks = ls.lock_holding_callers(s);
    let mut unheld = super::unheld::Unheld::new(p, s, &ls, locks, linearity);
    let mut unheld_calls = 0;
    let mut prop = Prop {
        gains_locks,
        first_of_key: IndexVec::from_elem_n(hashbrown::HashTable::new(), p.funcs.len()),
        widening: Widening::new(LockState::JOINS, widen::ORDER_VARIANTS),
        cx: Contexts::new(mhp),
        inputs,
        locks,
        ls,
        facts: Vec::new(),
        derived: Vec::new(),
        seen: IndexVec::from_elem_n(hashbrown::HashTable::new(), p.funcs.len()),
        work: Vec::new(),
        set_memo: SetTranslations::default(),
        carried: IndexVec::from_elem_n(hashbrown::HashTable::new(), p.funcs.len()),
    };
    for (f, body) in p.funcs.iter_enumerated() {
        for (b, block) in body.blocks.iter().enumerate() {
            for (k, e) in block.events.iter().enumerate() {
                let Event::Acquire(l, mode, Some(acq)) = *e else {
                    continue;
                };
                if !p.acquisitions[acq].waits {
                    continue;
                }
                let lock = prop.locks.find(l);
                if unheld.waits_for_unheld(prop.locks, f, lock) {
                    unheld_calls += 1;
                    continue;
                }
                let state = prop.state_at(f, b as u32, k as u32);
                // The locks held on some path here ([`State::may_held`]): each orders this one.
                let Some(must_held) = state.held else {
                    continue;
                };
                let held = state.may_held;
                let released = state.released;
                let ctx = prop.cx.own(
                    mhp.point(f, b as u32, k as u32),
                    mhp.joined_at(f, b as u32, k as u32),
                    Phase::UNKNOWN,
                );
                let fact = CallFact {
                    func: f,
                    acq,
                    lock,
                    mode,
                    state: LockState {
                        held,
                        must_held,
                        released,
                        gate: must_held,
                        gate_released: released,
                    },
                    ctx,
                };
                prop.add(fact, Derivation::OWN);
            }
        }
    }
    prop.work.reverse();
    prop.run();
    stats.count("lock-call facts", prop.facts.len());
    stats.count(
        "lock order: lock calls waiting for unheld locks",
        unheld_calls,
    );
    stats.count("lock order: facts widened", prop.widening.widened);
    stats.count(
        "lock order: most states of one fact",
        prop.widening.most as usize,
    );
    let leaks = super::leaks::lock_leaks(
        &super::leaks::LeakInputs {
            constraints: c,
            scopes,
            program: p,
            linearity,
            ls: &prop.ls,
        },
        prop.locks,
    );
    stats.count("lock leaks", leaks.len());
    Order {
        leaks,
        facts: prop.facts,
        derived: prop.derived,
        sets: prop.ls.sets,
        handle_sets: prop.cx.handle_sets,
        site_sets: prop.cx.site_sets,
        nests: prop.cx.nests,
    }
}

impl Order {
    /// The calls and forks from fact `k`'s function down to its lock call, outermost first.
    pub fn steps(&self, s: &Structure, mut k: usize) -> Vec<CallPoint> {
        let mut out = Vec::new();
        loop {
            let d = self.derived[k];
            if d.from == Derivation::OWN.from {
                return out;
            }
            k = d.from as usize;
            let callee = self.facts[k].func;
            let step = (d.step & !Derivation::FORK) as usize;
            out.push(if d.step & Derivation::FORK != 0 {
                s.forkers[callee][step]
            } else {
                s.callers[callee][step]
            });
        }
    }
}

impl Prop<'_> {
    fn add(&mut self, fact: CallFact, from: Derivation) {
        if fact.holds_none() && fact.ctx.thread == Thread::Current && !self.gains_locks[fact.func] {
            return;
        }
        let fact = if self.inputs.structure.recursive[fact.func] && !self.has(&fact) {
            self.widen(fact)
        } else {
            fact
        };
        let hash = hash_fact(&fact);
        let facts = &self.facts;
        let hashbrown::hash_table::Entry::Vacant(slot) = self.seen[fact.func].entry(
            hash,
            |&(h, k)| h == hash && facts[k as usize] == fact,
            |&(h, _)| h,
        ) else {
            return;
        };
        let k = self.facts.len();
        slot.insert((hash, k as u32));
        self.facts.push(fact);
        self.work.push(k);
        self.derived.push(from);
    }

    /// Whether the fact was made before.
    fn has(&self, fact: &CallFact) -> bool {
        let hash = hash_fact(fact);
        let facts = &self.facts;
        self.seen[fact.func]
            .find(hash, |&(h, k)| h == hash && facts[k as usize] == *fact)
            .is_some()
    }

    /// The lock state a new fact of a function on a cycle of calls takes ([`widen`]): past
    /// [`widen::ORDER_VARIANTS`] distinct states of the facts that differ only in their state,
    /// the join of all. The join holds, and has released, every lock one of them does, so it
    /// makes every edge of theirs and every self-deadlock; its gate is the locks all of them
    /// gate by, with every lock one of them released for it, so it gates no cycle one of them
    /// would not.
    ///
    /// Only functions on a cycle of calls are bounded: elsewhere a fact's state is the image of
    /// a callee's through one of finitely many calls. A key is kept as the index of its first
    /// fact, and only a key with a second state has a join: a table of keys as facts cost as
    /// much memory as the facts (sshfs: 40 MiB).
    fn widen(&mut self, fact: CallFact) -> CallFact {
        let key = CallFact {
            state: LockState::EMPTY,
            ..fact
        };
        let hash = hash_fact(&key);
        let facts = &self.facts;
        let same = |&(h, k): &(u64, u32)| {
            let other = CallFact {
                state: LockState::EMPTY,
                ..facts[k as usize]
            };
            h == hash && other == key
        };
        let Some(&(_, first)) = self.first_of_key[fact.func].find(hash, same) else {
            // The fact is new: it is about to be made, at the next index.
            let next = u32::try_from(self.facts.len()).expect("fewer than 2^32 lock-call facts");
            self.first_of_key[fact.func].insert_unique(hash, (hash, next), |&(h, _)| h);
            return fact;
        };
        let sets = &mut self.ls.sets;
        if !self.widening.knows(&first) {
            let state = self.facts[first as usize].state.sets();
            self.widening.state(first, state, sets);
        }
        let state = self.widening.state(first, fact.state.sets(), sets);
        CallFact {
            state: LockState::with_sets(state),
            ..fact
        }
    }

    fn state_at(&self, f: FnId, block: u32, index: u32) -> State {
        self.ls.state_before(f, block, index)
    }

    /// A callee's lock as the caller at `site` names it; `None` for a lock of one run of the
    /// callee. A lock that names no lock the program made stays: the deadlock check takes it
    /// for any lock.
    fn translate_lock(&mut self, l: Lock, site: Site) -> Option<Lock> {
        let OrderInputs {
            constraints: c,
            scopes,
            ..
        } = self.inputs;
        translate(c, scopes, self.locks, site, l)
    }

    /// A callee's held set (`held`) or released set as the caller at `site` sees it: locks of
    /// one run of the callee mean nothing there; a release of a lock that names no lock may
    /// release any, and holding one is holding some lock (the deadlock check's any lock).
    fn translate_set(&mut self, set: SetId, site: Site, held: bool) -> SetId {
        let OrderInputs {
            constraints: c,
            scopes,
            linearity,
            ..
        } = self.inputs;
        let image = |locks: &mut LockTable, l| match translate(c, scopes, locks, site, l) {
            None => Image::Dropped,
            Some(x) if !held && linearity.is_ungrounded(locks, x) => Image::Every,
            Some(x) => Image::Lock(x),
        };
        (self.set_memo).translate(&mut self.ls.sets, self.locks, set, site, held, image)
    }

    fn run(&mut self) {
        let (p, s) = (self.inputs.program, self.inputs.structure);
        while let Some(k) = self.work.pop() {
            let f = self.facts[k];
            crate::budget::poll();
            if Some(f.func) == p.main {
                continue;
            }
            if let Some(view) = (!s.callers[f.func].is_empty())
                .then(|| self.carry(k))
                .flatten()
            {
                for (i, pt) in s.callers[f.func].iter().enumerate() {
                    if let Some(up) = self.through_call(&f, &view, pt) {
                        self.add(up, Derivation::through(k, i, false));
                    }
                }
            }
            for (i, pt) in s.forkers[f.func].iter().enumerate() {
                if let Some(up) = self.through_fork(&f, pt) {
                    self.add(up, Derivation::through(k, i, true));
                }
            }
        }
    }

    /// What [`Prop::through_call`] reads of a fact, whatever the call: the fact with its
    /// context's [`Contexts::call_view`]. Facts of one function that differ only in their
    /// points (another thread's lock calls reached through different calls of the function)
    /// share it, and so derive the same facts in every caller: only the first is carried up.
    fn call_key(cx: &mut Contexts, mhp: &Mhp, f: &CallFact) -> CallFact {
        CallFact {
            ctx: cx.call_view(mhp, f.func, &f.ctx),
            ..*f
        }
    }

    /// The call view of fact `k`'s context when it is the first fact with its
    /// [`Prop::call_key`] to be carried up (it is recorded as carried then), `None` when one
    /// was carried before.
    fn carry(&mut self, k: usize) -> Option<Ctx> {
        let mhp = self.inputs.mhp;
        let (facts, cx) = (&self.facts, &mut self.cx);
        let key = Self::call_key(cx, mhp, &facts[k]);
        let hash = hash_fact(&key);
        let mut same =
            |&(h, j): &(u64, u32)| h == hash && Self::call_key(cx, mhp, &facts[j as usize]) == key;
        if self.carried[key.func].find(hash, &mut same).is_some() {
            return None;
        }
        self.carried[key.func].insert_unique(hash, (hash, k as u32), |&(h, _)| h);
        Some(key.ctx)
    }

    /// The fact as the caller at `pt` sees it (as [`super::facts`] takes an access's), `view`
    /// being its context's call view: `None` where the call is unreachable or the lock is one
    /// of a run of the callee.
    fn through_call(&mut self, f: &CallFact, view: &Ctx, pt: &CallPoint) -> Option<CallFact> {
        let state = self.state_at(pt.caller, pt.block, pt.index);
        let caller = CallerState {
            must_held: state.held?,
            held: state.may_held,
            released: state.released,
        };
        let lock = self.translate_lock(f.lock, pt.site)?;
        let current = f.ctx.thread == Thread::Current;
        let released = |prop: &mut Self, set| {
            if current {
                prop.translate_set(set, pt.site, false)
            } else {
                LockSets::EMPTY
            }
        };
        let named = LockState {
            held: self.translate_set(f.state.held, pt.site, true),
            must_held: self.translate_set(f.state.must_held, pt.site, true),
            released: released(self, f.state.released),
            gate: self.translate_set(f.state.gate, pt.site, true),
            gate_released: released(self, f.state.gate_released),
        };
        // Another thread's lock call is made with none of the caller's locks.
        let up = if current {
            named.seen_by(&mut self.ls.sets, caller)
        } else {
            named
        };
        let ctx = self.cx.view_through_call(self.inputs.mhp, view, pt);
        Some(CallFact {
            func: pt.caller,
            lock,
            state: up,
            ctx,
            ..*f
        })
    }

    /// The fact as the thread that forks `f.func` at `pt` sees it: the child's, with none of the
    /// parent's locks, keeping where it was in the child's function (its nest, as
    /// [`super::facts`] keeps an access's). `None` for a lock call that holds no lock: above
    /// the fork its held sets stay empty through every call and fork (only the thread's own
    /// callers add locks), so it would never be an edge nor a self-deadlock, yet it was copied
    /// to every level above — most of the lock order of a program with many fork sites.
    fn through_fork(&mut self, f: &CallFact, pt: &CallPoint) -> Option<CallFact> {
        if f.holds_none() {
            return None;
        }
        let lock = self.translate_lock(f.lock, pt.site)?;
        // The child's lock call, with none of its parent's locks nor releases.
        let state = LockState {
            held: self.translate_set(f.state.held, pt.site, true),
            must_held: self.translate_set(f.state.must_held, pt.site, true),
            gate: self.translate_set(f.state.gate, pt.site, true),
            ..LockState::EMPTY
        };
        let (mhp, s) = (self.inputs.mhp, self.inputs.structure);
        let ctx = self.cx.through_fork(mhp, s, f.func, &f.ctx, pt);
        Some(CallFact {
            func: pt.caller,
            lock,
            state,
            ctx,
            ..*f
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threads::locksets::Held;
    use proptest::collection::vec;
    use proptest::prelude::*;

    /// The set of the locks of `bits` (six of them), each held exclusively.
    fn set(sets: &mut LockSets, bits: u8) -> SetId {
        sets.intern(
            (0..6)
                .filter(|k| bits & (1 << k) != 0)
                .map(|k| Held::new(Lock(k), Mode::Exclusive))
                .collect(),
        )
    }

    fn subset(sets: &LockSets, a: SetId, b: SetId) -> bool {
        sets.get(a).iter().all(|x| sets.get(b).contains(x))
    }

    /// Whether `wide` stands for `s`: it makes every edge and self-deadlock `s` makes, and
    /// gates no cycle `s` does not.
    fn stands_for(sets: &LockSets, wide: LockState, s: LockState) -> bool {
        subset(sets, s.held, wide.held)
            && subset(sets, s.must_held, wide.must_held)
            && subset(sets, wide.released, s.released)
            && subset(sets, wide.gate, s.gate)
            && subset(sets, s.gate_released, wide.gate_released)
    }

    proptest! {
        /// A widened lock-call fact (the join of its states, `Prop::widen`) stands for each
        /// state it joined, and still does after the same calls (`LockState::seen_by`): the
        /// lock order's bound reports every deadlock the facts it joined would.
        #[test]
        fn a_widened_state_stands_for_its_states_through_every_call(
            states in vec([any::<u8>(); 5], 1..6),
            callers in vec([any::<u8>(); 3], 1..4),
        ) {
            let mut sets = LockSets::new();
            let mut widening: Widening<u8, 5> = Widening::new(LockState::JOINS, 0);
            let mut joined = Vec::new();
            for s in &states {
                // The locks held on every path are among those held on some path.
                let sets_of = [s[0] | s[1], s[1], s[2], s[3], s[4]].map(|b| set(&mut sets, b));
                joined.push(LockState::with_sets(sets_of));
                widening.state(0, sets_of, &mut sets);
            }
            let mut wide = LockState::with_sets(widening.state(0, joined[0].sets(), &mut sets));
            for c in callers {
                for s in &joined {
                    prop_assert!(stands_for(&sets, wide, *s));
                }
                let caller = CallerState {
                    held: set(&mut sets, c[0] | c[1]),
                    must_held: set(&mut sets, c[1]),
                    released: set(&mut sets, c[2]),
                };
                wide = wide.seen_by(&mut sets, caller);
                for s in &mut joined {
                    *s = s.seen_by(&mut sets, caller);
                }
            }
            for s in &joined {
                prop_assert!(stands_for(&sets, wide, *s));
            }
        }
    }
}
