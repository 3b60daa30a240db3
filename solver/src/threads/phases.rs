//! Barrier phases (an extension beyond the paper, which has no barriers).
//!
//! A barrier of count N lets its waiters go only when N threads wait. When at most N threads
//! ever wait on it, every trip needs all of them, so after its k-th wait a thread runs only
//! once every other waiting thread has made its k-th wait, and before any makes its (k+1)-th:
//! an access a thread makes after exactly k waits (its *phase* k) never runs at the same time
//! as one another waiting thread makes in a phase other than k. (A thread that waits fewer
//! times than the others leaves the rest waiting forever: what they would do after never
//! happens, which orders nothing wrongly.) This module gives each access its phase, or
//! [`Phase::UNKNOWN`]; the check orders accesses of two different known phases
//! ([`super::check::Concurrency::concurrent`]).
//!
//! The front end names the barrier (one object, one constant count: `ThreadProgram::
//! barrier_count`) and bounds the threads each fork starts (`ThreadProgram::fork_trips`). Here:
//!
//! 1. **Who waits**: a function waits if it, or a function it calls, has a
//!    [`Event::BarrierWait`]. The waiting threads are `main`, if it waits, and the threads of
//!    every fork of a waiting function: a fork starts at most its `fork_trips` threads per run
//!    of the forking function, which must run at most once ([`Structure::runs_multi`]); a fork
//!    with no bound, or in a function that runs more than once, starts any number. If the
//!    waiting threads may outnumber the count, every phase is unknown.
//! 2. **Waits per call**: for each function, the number of waits between its entry and its
//!    return, when it is the same on every path (a forward dataflow over its blocks, callees
//!    first: a wait on a cycle, or on one branch only, makes it unknown; a recursive function
//!    that waits is unknown).
//! 3. **Phase at entry**: 0 for `main` and for the function of a waiting thread when a fork
//!    starts it; for a called function, the caller's phase at the call, when every call agrees.
//!    The function of a thread that does not wait has no phase: its accesses are ordered by
//!    nothing here, and neither are those of a function it calls.
//!
//! A phase is a property of the access, the same in every context, so facts only carry it.

use rustc_hash::FxHashMap;

use super::structure::Structure;
use super::{AccessId, Event, FnId, ThreadProgram};
use crate::ids::IndexVec;

/// How many trips of the phase barrier the accessing thread has passed, if that is known.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phase(u32);

impl Phase {
    pub const UNKNOWN: Phase = Phase(u32::MAX);

    /// Whether accesses in phases `self` and `other` never run at the same time: both are
    /// known and they differ.
    pub fn orders(self, other: Phase) -> bool {
        self != other && self != Phase::UNKNOWN && other != Phase::UNKNOWN
    }
}

/// A count of waits along the paths to a point: none reach it, the same number on all, or
/// different numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Waits {
    Unreached,
    Exact(u32),
    Varies,
}

impl Waits {
    fn meet(self, other: Waits) -> Waits {
        match (self, other) {
            (Waits::Unreached, x) | (x, Waits::Unreached) => x,
            (Waits::Exact(a), Waits::Exact(b)) if a == b => Waits::Exact(a),
            _ => Waits::Varies,
        }
    }

    fn plus(self, other: Waits) -> Waits {
        match (self, other) {
            (Waits::Unreached, _) | (_, Waits::Unreached) => Waits::Unreached,
            (Waits::Exact(a), Waits::Exact(b)) => a
                .checked_add(b)
                .filter(|&n| n < u32::MAX)
                .map_or(Waits::Varies, Waits::Exact),
            _ => Waits::Varies,
        }
    }
}

/// The phase of every access of `p` (all unknown when `p` has no phase barrier, or when more
/// threads than its count may wait on it).
pub fn phases(p: &ThreadProgram, s: &Structure) -> IndexVec<AccessId, Phase> {
    let mut out = IndexVec::from_elem_n(Phase::UNKNOWN, p.accesses.len());
    let Some(count) = p.barrier_count else {
        return out;
    };
    let waits = waiting_functions(p, s);
    if waiting_threads(p, s, &waits).is_none_or(|n| n > count) {
        return out;
    }
    let per_call = waits_per_call(p, s, &waits);
    let entry = entry_phases(p, s, &waits, &per_call);
    for (f, body) in p.funcs.iter_enumerated() {
        let Waits::Exact(base) = entry[f] else {
            continue;
        };
        let starts = block_entries(p, f, &per_call);
        for (b, block) in body.blocks.iter().enumerate() {
            let mut state = starts[b];
            for e in &block.events {
                if let (Event::Access(a), Waits::Exact(n)) = (*e, state) {
                    if let Some(phase) = base.checked_add(n).filter(|&x| x < u32::MAX) {
                        out[a] = Phase(phase);
                    }
                }
                state = step(p, state, e, &per_call);
            }
        }
    }
    out
}

/// Whether each function waits on the barrier, itself or in a function it calls.
fn waiting_functions(p: &ThreadProgram, s: &Structure) -> IndexVec<FnId, bool> {
    let mut waits: IndexVec<FnId, bool> = p
        .funcs
        .iter()
        .map(|body| {
            body.blocks
                .iter()
                .flat_map(|b| &b.events)
                .any(|e| matches!(e, Event::BarrierWait))
        })
        .collect();
    for scc in &s.sccs {
        loop {
            let mut changed = false;
            for &f in scc {
                let calls_waiter = p.funcs[f]
                    .blocks
                    .iter()
                    .flat_map(|b| &b.events)
                    .any(|e| matches!(*e, Event::Call { callee, .. } if waits[callee]));
                if calls_waiter && !waits[f] {
                    waits[f] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    waits
}

/// An upper bound on the threads that wait on the barrier in one run of the program, or `None`
/// when there is none.
fn waiting_threads(p: &ThreadProgram, s: &Structure, waits: &IndexVec<FnId, bool>) -> Option<u64> {
    let mut trips: FxHashMap<_, u64> = FxHashMap::default();
    for &(site, n) in &p.fork_trips {
        let t = trips.entry(site).or_insert(0);
        *t = (*t).max(n);
    }
    let mut total = u64::from(p.main.is_some_and(|m| waits[m]));
    for (f, forks) in s.forkers.iter_enumerated() {
        if !waits[f] {
            continue;
        }
        for pt in forks {
            if s.runs_multi[pt.caller] {
                return None;
            }
            total = total.checked_add(*trips.get(&pt.site)?)?;
        }
    }
    Some(total)
}

/// The waits on every path from each function's entry to its return ([`Waits::Unreached`]:
/// it never returns).
fn waits_per_call(
    p: &ThreadProgram,
    s: &Structure,
    waits: &IndexVec<FnId, bool>,
) -> IndexVec<FnId, Waits> {
    let mut per_call = IndexVec::from_elem_n(Waits::Exact(0), p.funcs.len());
    for scc in &s.sccs {
        if scc.iter().any(|&f| s.recursive[f] && waits[f]) {
            for &f in scc {
                per_call[f] = Waits::Varies;
            }
            continue;
        }
        for &f in scc {
            if !waits[f] {
                continue;
            }
            let starts = block_entries(p, f, &per_call);
            let mut exit = Waits::Unreached;
            for (b, block) in p.funcs[f].blocks.iter().enumerate() {
                if block.returns {
                    let end = block
                        .events
                        .iter()
                        .fold(starts[b], |st, e| step(p, st, e, &per_call));
                    exit = exit.meet(end);
                }
            }
            per_call[f] = exit;
        }
    }
    per_call
}

/// The waits since entry on every path to the start of each block of `f`.
fn block_entries(p: &ThreadProgram, f: FnId, per_call: &IndexVec<FnId, Waits>) -> Vec<Waits> {
    let blocks = &p.funcs[f].blocks;
    let mut at = vec![Waits::Unreached; blocks.len()];
    if blocks.is_empty() {
        return at;
    }
    at[0] = Waits::Exact(0);
    let mut work = vec![0usize];
    while let Some(b) = work.pop() {
        let end = blocks[b]
            .events
            .iter()
            .fold(at[b], |st, e| step(p, st, e, per_call));
        for &succ in &blocks[b].succs {
            let succ = succ as usize;
            let Some(old) = at.get(succ).copied() else {
                continue;
            };
            let new = old.meet(end);
            if new != old {
                at[succ] = new;
                work.push(succ);
            }
        }
    }
    at
}

/// The waits after one event. A call adds its callee's waits; one of several targets of a call
/// through a pointer (only one of which runs) may add none, so it is exact only when it adds
/// none.
fn step(p: &ThreadProgram, state: Waits, e: &Event, per_call: &IndexVec<FnId, Waits>) -> Waits {
    match *e {
        Event::BarrierWait => state.plus(Waits::Exact(1)),
        Event::Call { site, callee, .. } => {
            let callee_waits = per_call[callee];
            if p.alternatives.binary_search(&site).is_ok() {
                match callee_waits {
                    Waits::Exact(0) | Waits::Unreached => state,
                    _ => state.meet(Waits::Varies),
                }
            } else {
                state.plus(callee_waits)
            }
        }
        _ => state,
    }
}

/// The phase at each function's entry: 0 where a waiting thread starts (and in `main`, if it
/// waits), the caller's phase at the call for a called function when all agree.
fn entry_phases(
    p: &ThreadProgram,
    s: &Structure,
    waits: &IndexVec<FnId, bool>,
    per_call: &IndexVec<FnId, Waits>,
) -> IndexVec<FnId, Waits> {
    let mut entry = IndexVec::from_elem_n(Waits::Unreached, p.funcs.len());
    let start = |f: FnId| {
        if waits[f] {
            Waits::Exact(0)
        } else {
            Waits::Varies
        }
    };
    if let Some(m) = p.main {
        entry[m] = start(m);
    }
    for (f, forks) in s.forkers.iter_enumerated() {
        if !forks.is_empty() {
            entry[f] = entry[f].meet(start(f));
        }
    }
    // Callers before callees; a recursive function has no phase. A call that no path reaches
    // adds nothing to its callee's entry (`plus` leaves it unreached).
    let mut starts: FxHashMap<FnId, Vec<Waits>> = FxHashMap::default();
    for scc in s.sccs.iter().rev() {
        for &f in scc {
            if s.recursive[f] {
                entry[f] = Waits::Varies;
                continue;
            }
            for pt in &s.callers[f] {
                if entry[pt.caller] == Waits::Unreached {
                    continue;
                }
                let first = starts
                    .entry(pt.caller)
                    .or_insert_with(|| block_entries(p, pt.caller, per_call))
                    [pt.block as usize];
                let at = p.funcs[pt.caller].blocks[pt.block as usize].events[..pt.index as usize]
                    .iter()
                    .fold(first, |st, e| step(p, st, e, per_call));
                entry[f] = entry[f].meet(entry[pt.caller].plus(at));
            }
        }
    }
    for f in p.funcs.indices() {
        if entry[f] == Waits::Unreached {
            entry[f] = Waits::Varies;
        }
    }
    entry
}
