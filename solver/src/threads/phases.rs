//! Barrier phases and hand-shakes (extensions beyond the paper, which has neither).
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
//!
//! A phase also carries the access's place in the program's hand-shakes ([`Event::HandshakeSet`],
//! [`Event::HandshakeWait`], found by the front end): before a hand-shake's signal in the one
//! thread that signals, or after one of its waits; the check orders the two
//! ([`Phase::orders`]). The accesses marked are those of the two functions at such points, and
//! all accesses of the functions only such points call: the same in every context. A call of a
//! function that waits on every path to its return is a wait in its caller
//! ([`waits_at_exit`]).

use rustc_hash::FxHashMap;

use super::structure::Structure;
use super::{AccessId, Event, FnId, ThreadProgram};
use crate::ids::IndexVec;

/// Where an access stands in the program's synchronisation that is the same in every context:
/// how many trips of the phase barrier its thread has passed, if that is known (the low 16
/// bits, [`BARRIER_UNKNOWN`] when not), and for each of up to [`MAX_HANDSHAKES`] hand-shakes
/// whether it comes before the signal (bit `16 + 2k`) or after a wait (bit `17 + 2k`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phase(u32);

/// The barrier part of a [`Phase`] that says nothing.
const BARRIER_UNKNOWN: u32 = 0xFFFF;

/// How many hand-shakes a program's accesses can be ordered by (the others order nothing).
pub const MAX_HANDSHAKES: u32 = 8;

/// The "before the signal" bits of the hand-shake half of a [`Phase`].
const BEFORE: u32 = 0x5555;

impl Phase {
    pub const UNKNOWN: Phase = Phase(BARRIER_UNKNOWN);

    /// Whether accesses in phases `self` and `other` never run at the same time: both barrier
    /// phases are known and differ, or one comes before a hand-shake's signal and the other
    /// after a wait of that hand-shake.
    pub fn orders(self, other: Phase) -> bool {
        let (a, b) = (self.0 & BARRIER_UNKNOWN, other.0 & BARRIER_UNKNOWN);
        let barrier = a != b && a != BARRIER_UNKNOWN && b != BARRIER_UNKNOWN;
        let (x, y) = (self.0 >> 16, other.0 >> 16);
        let handshake =
            (x & BEFORE) & ((y >> 1) & BEFORE) != 0 || (y & BEFORE) & ((x >> 1) & BEFORE) != 0;
        barrier || handshake
    }

    fn with_barrier(self, trips: u32) -> Phase {
        Phase((self.0 & !BARRIER_UNKNOWN) | trips)
    }

    fn with_handshake(self, k: u32, after: bool) -> Phase {
        Phase(self.0 | 1 << (16 + 2 * k + u32::from(after)))
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
    handshakes(p, s, &mut out);
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
                    if let Some(trips) = base.checked_add(n).filter(|&x| x < BARRIER_UNKNOWN) {
                        out[a] = out[a].with_barrier(trips);
                    }
                }
                state = step(p, state, e, &per_call);
            }
        }
    }
    out
}

/// Marks the accesses of each hand-shake: those of the function with its signal
/// ([`Event::HandshakeSet`]) at points no path from the signal reaches (before it), and those of
/// a function with one of its waits ([`Event::HandshakeWait`]) at points every path from the
/// entry reaches through a wait (after it); and all accesses of the functions that only such
/// points call, directly or through other such functions (a helper that fills a table before
/// the signal, one that reads it after the wait), found from those points along calls and
/// kept only while every call of them is such a point or in such a function. The front end
/// gives a signal only to a function that runs as one thread, once, and a wait only where the
/// flag the signal alone sets was seen set holding the mutex the signal held: so the accesses
/// before the signal happen before those after a wait.
fn handshakes(p: &ThreadProgram, s: &Structure, out: &mut IndexVec<AccessId, Phase>) {
    let exits = waits_at_exit(p, s);
    // Per hand-shake side: the functions with its markers and their marked call points.
    let mut marked: Vec<(u32, bool, Vec<FnId>, Vec<FnId>)> = Vec::new();
    for (f, body) in p.funcs.iter_enumerated() {
        let mut ks: Vec<(u32, bool)> = body
            .blocks
            .iter()
            .flat_map(|b| &b.events)
            .flat_map(|e| match *e {
                Event::HandshakeSet(k) => vec![(k, false)],
                Event::HandshakeWait(k) => vec![(k, true)],
                Event::Call { callee, .. } => (0..MAX_HANDSHAKES)
                    .filter(|&k| exits[callee] & (1 << k) != 0)
                    .map(|k| (k, true))
                    .collect(),
                _ => Vec::new(),
            })
            .filter(|&(k, _)| k < MAX_HANDSHAKES)
            .collect();
        ks.sort_unstable();
        ks.dedup();
        for (k, after) in ks {
            let calls = mark_in_function(p, body, k, after, &exits, out);
            match marked.iter_mut().find(|m| (m.0, m.1) == (k, after)) {
                Some(m) => {
                    m.2.push(f);
                    m.3.extend(calls);
                }
                None => marked.push((k, after, vec![f], calls)),
            }
        }
    }
    if marked.is_empty() {
        return;
    }
    for (k, after, markers, calls) in marked {
        for g in called_only_from(p, s, &markers, &calls) {
            for e in p.funcs[g].blocks.iter().flat_map(|b| &b.events) {
                if let Event::Access(a) = *e {
                    out[a] = out[a].with_handshake(k, after);
                }
            }
        }
    }
}

/// Marks the accesses of one function before hand-shake `k`'s signal (`after` unset) or after
/// its wait, and returns the functions called at such points.
fn mark_in_function(
    p: &ThreadProgram,
    body: &super::FnBody,
    k: u32,
    after: bool,
    exits: &IndexVec<FnId, u8>,
    out: &mut IndexVec<AccessId, Phase>,
) -> Vec<FnId> {
    let marker = |e: &Event| {
        if after {
            *e == Event::HandshakeWait(k) || waiting_call(p, e, k, exits)
        } else {
            *e == Event::HandshakeSet(k)
        }
    };
    // Before the signal: may it have happened (a may analysis, union)? After a wait: has one
    // certainly happened (a must analysis, intersection)?
    let entries = crate::dataflow::forward(
        &mut (),
        body.blocks.len(),
        |b| &body.blocks[b].succs,
        false,
        |_, b, mut seen| {
            seen |= body.blocks[b].events.iter().any(marker);
            Some(seen)
        },
        |_, into: &mut bool, incoming: &bool| {
            let merged = if after {
                *into && *incoming
            } else {
                *into || *incoming
            };
            let changed = merged != *into;
            *into = merged;
            changed
        },
    );
    let mut calls = Vec::new();
    for (b, entry) in entries.into_iter().enumerate() {
        let Some(mut seen) = entry else { continue };
        for e in &body.blocks[b].events {
            seen |= marker(e);
            // A call that waits is after the wait only once it returns: its callee's own
            // accesses before its wait are not.
            if seen != after || (after && waiting_call(p, e, k, exits)) {
                continue;
            }
            match *e {
                Event::Access(a) => out[a] = out[a].with_handshake(k, after),
                Event::Call { callee, .. } => calls.push(callee),
                _ => {}
            }
        }
    }
    calls
}

/// Whether `e` is a call of a function that waits for hand-shake `k` before it returns. One
/// target of a call through a pointer is not: another target may run instead.
fn waiting_call(p: &ThreadProgram, e: &Event, k: u32, exits: &IndexVec<FnId, u8>) -> bool {
    matches!(*e, Event::Call { site, callee, .. }
        if exits[callee] & (1 << k) != 0 && p.alternative_of(site).is_none())
}

/// Per function, the hand-shakes (bit `k`) it waits for on every path from its entry to a
/// return: at one of its waits ([`Event::HandshakeWait`]) or in a call of a function that
/// does. A call of such a function is a wait for its caller once it returns (a `start`
/// function that starts a loader and waits for its post before returning orders what its
/// caller does next). Callees first; within a cycle of calls a function counts as waiting for
/// nothing, which only orders less. A function that never returns waits for nothing.
fn waits_at_exit(p: &ThreadProgram, s: &Structure) -> IndexVec<FnId, u8> {
    let mut exits: IndexVec<FnId, u8> = IndexVec::from_elem_n(0, p.funcs.len());
    // Only the hand-shakes some function waits for, and only in functions with a wait or a
    // call of a waiting function: the rest wait for nothing without a walk.
    let waited = p
        .funcs
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.events)
        .fold(0u8, |bits, e| match *e {
            Event::HandshakeWait(k) if k < MAX_HANDSHAKES => bits | 1 << k,
            _ => bits,
        });
    if waited == 0 {
        return exits;
    }
    for scc in &s.sccs {
        for &f in scc {
            if s.recursive[f] {
                continue;
            }
            let body = &p.funcs[f];
            let present =
                body.blocks
                    .iter()
                    .flat_map(|b| &b.events)
                    .fold(0u8, |bits, e| match *e {
                        Event::HandshakeWait(k) if k < MAX_HANDSHAKES => bits | 1 << k,
                        Event::Call { callee, .. } => bits | exits[callee],
                        _ => bits,
                    });
            let mut bits = 0u8;
            for k in (0..MAX_HANDSHAKES).filter(|&k| present & waited & (1 << k) != 0) {
                let waits =
                    |e: &Event| *e == Event::HandshakeWait(k) || waiting_call(p, e, k, &exits);
                let entries = crate::dataflow::forward(
                    &mut (),
                    body.blocks.len(),
                    |b| &body.blocks[b].succs,
                    false,
                    |_, b, seen| Some(seen || body.blocks[b].events.iter().any(waits)),
                    |_, into: &mut bool, incoming: &bool| {
                        let merged = *into && *incoming;
                        let changed = merged != *into;
                        *into = merged;
                        changed
                    },
                );
                let mut returns = body.blocks.iter().zip(&entries).filter(|(b, _)| b.returns);
                let mut any_return = false;
                let all = returns.all(|(block, entry)| {
                    any_return = true;
                    entry.is_some_and(|seen| seen || block.events.iter().any(waits))
                });
                if any_return && all {
                    bits |= 1 << k;
                }
            }
            exits[f] = bits;
        }
    }
    exits
}

/// The functions reachable along calls from the marked call points of `markers` (`calls`, one
/// callee per point) every call of which is one of those points or lies in another such
/// function, and which run no other way: each of their runs happens inside a call made at a
/// marked point. The functions with the markers are never among them (their other points are
/// not marked).
fn called_only_from(
    p: &ThreadProgram,
    s: &Structure,
    markers: &[FnId],
    calls: &[FnId],
) -> Vec<FnId> {
    let n = p.funcs.len();
    // Started by a fork, or the program's entry: runs other than inside a call.
    let entered = |g: FnId| !s.forkers[g].is_empty() || p.main == Some(g);
    let mut inside: IndexVec<FnId, bool> = IndexVec::from_elem_n(false, n);
    let mut work: Vec<FnId> = calls.to_vec();
    while let Some(g) = work.pop() {
        if entered(g) || markers.contains(&g) || std::mem::replace(&mut inside[g], true) {
            continue;
        }
        for e in p.funcs[g].blocks.iter().flat_map(|b| &b.events) {
            if let Event::Call { callee, .. } = *e {
                work.push(callee);
            }
        }
    }
    let mut marked_calls: IndexVec<FnId, usize> = IndexVec::from_elem_n(0, n);
    for &g in calls {
        marked_calls[g] += 1;
    }
    // Drop the functions called from elsewhere, until none is.
    loop {
        let mut dropped = false;
        for g in p.funcs.indices() {
            if !inside[g] {
                continue;
            }
            let callers = &s.callers[g];
            let from_inside = callers.iter().filter(|pt| inside[pt.caller]).count();
            if from_inside + marked_calls[g] < callers.len() {
                inside[g] = false;
                dropped = true;
            }
        }
        if !dropped {
            break;
        }
    }
    p.funcs.indices().filter(|&g| inside[g]).collect()
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
            if p.alternative_of(site).is_some() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{Rho, Site};
    use crate::ids::Idx;
    use crate::threads::{AccessInfo, EventBlock, FnBody};

    fn access(p: &mut ThreadProgram) -> Event {
        Event::Access(p.accesses.push(AccessInfo {
            rho: Rho::new(0),
            write: true,
            opened: None,
            own_copy: false,
        }))
    }

    fn block(events: Vec<Event>, succs: Vec<u32>) -> EventBlock {
        EventBlock {
            events,
            returns: succs.is_empty(),
            succs,
            lock_failure: false,
            stable_test: None,
        }
    }

    #[test]
    fn barrier_phases_order_when_both_known_and_different() {
        let (one, two) = (
            Phase::UNKNOWN.with_barrier(1),
            Phase::UNKNOWN.with_barrier(2),
        );
        assert!(one.orders(two) && two.orders(one));
        assert!(!one.orders(one));
        assert!(!one.orders(Phase::UNKNOWN) && !Phase::UNKNOWN.orders(Phase::UNKNOWN));
    }

    #[test]
    fn a_handshake_orders_before_its_signal_with_after_its_wait_only() {
        let before = Phase::UNKNOWN.with_handshake(3, false);
        let after = Phase::UNKNOWN.with_handshake(3, true);
        let other_after = Phase::UNKNOWN.with_handshake(4, true);
        assert!(before.orders(after) && after.orders(before));
        assert!(!before.orders(before) && !after.orders(after));
        assert!(!before.orders(other_after) && !other_after.orders(before));
        // A barrier phase in common does not undo a hand-shake's order, nor make one.
        let b1 = before.with_barrier(1);
        let a1 = after.with_barrier(1);
        assert!(b1.orders(a1));
        assert!(!Phase::UNKNOWN.with_barrier(1).orders(a1));
    }

    /// The signaller: an access before the set, one in a loop around the set (it may follow a
    /// set), one after it. The waiter: an access before its wait, one on one branch only
    /// after it, one after it on every path.
    #[test]
    fn marks_follow_the_paths_from_the_signal_and_to_the_waits() {
        let mut p = ThreadProgram::default();
        let (s_before, s_loop, s_after) = (access(&mut p), access(&mut p), access(&mut p));
        p.funcs.push(FnBody {
            scope: crate::scope::Scope::ROOT,
            blocks: vec![
                block(vec![s_before], vec![1]),
                block(vec![s_loop, Event::HandshakeSet(0)], vec![1, 2]),
                block(vec![s_after], vec![]),
            ],
        });
        let (w_before, w_branch, w_after) = (access(&mut p), access(&mut p), access(&mut p));
        p.funcs.push(FnBody {
            scope: crate::scope::Scope::ROOT,
            blocks: vec![
                block(vec![w_before], vec![1, 2]),
                block(vec![Event::HandshakeWait(0), w_branch], vec![3]),
                block(vec![], vec![3]),
                block(vec![w_after], vec![]),
            ],
        });
        let mut out = IndexVec::from_elem_n(Phase::UNKNOWN, p.accesses.len());
        handshakes(&p, &Structure::new(&p), &mut out);
        let phase = |e: Event| match e {
            Event::Access(a) => out[a],
            _ => unreachable!("an access"),
        };
        let (before, after) = (
            Phase::UNKNOWN.with_handshake(0, false),
            Phase::UNKNOWN.with_handshake(0, true),
        );
        assert_eq!(phase(s_before), before);
        assert_eq!(phase(s_loop), Phase::UNKNOWN);
        assert_eq!(phase(s_after), Phase::UNKNOWN);
        assert_eq!(phase(w_before), Phase::UNKNOWN);
        assert_eq!(phase(w_branch), after);
        assert_eq!(phase(w_after), Phase::UNKNOWN);
    }

    fn body(events: Vec<Event>) -> FnBody {
        FnBody {
            scope: crate::scope::Scope::ROOT,
            blocks: vec![EventBlock {
                events,
                succs: Vec::new(),
                returns: true,
                lock_failure: false,
                stable_test: None,
            }],
        }
    }

    /// The signaller calls `only_before` before its signal, and `both` before and after it;
    /// `only_before` calls `nested`. Only `only_before` and `nested` run before the signal in
    /// every run.
    #[test]
    fn callees_are_marked_only_when_every_call_is_before_the_signal() {
        let mut p = ThreadProgram::default();
        let call = |site: usize, callee: usize| Event::Call {
            site: Site::new(site),
            callee: FnId::new(callee),
            handle: None,
        };
        let (a0, a1, a2) = (access(&mut p), access(&mut p), access(&mut p));
        // 0: the signaller (a thread's routine), 1: only_before, 2: both, 3: nested, 4: main.
        p.funcs.push(body(vec![
            call(0, 1),
            call(1, 2),
            Event::HandshakeSet(0),
            call(2, 2),
        ]));
        p.funcs.push(body(vec![a0, call(3, 3)]));
        p.funcs.push(body(vec![a1]));
        p.funcs.push(body(vec![a2]));
        p.funcs.push(body(vec![Event::Fork {
            site: Site::new(4),
            callee: FnId::new(0),
            handle: None,
        }]));
        p.main = Some(FnId::new(4));
        let mut out = IndexVec::from_elem_n(Phase::UNKNOWN, p.accesses.len());
        handshakes(&p, &Structure::new(&p), &mut out);
        let before = Phase::UNKNOWN.with_handshake(0, false);
        let phase = |e: Event| match e {
            Event::Access(a) => out[a],
            _ => unreachable!("an access"),
        };
        assert_eq!(phase(a0), before);
        assert_eq!(phase(a1), Phase::UNKNOWN);
        assert_eq!(phase(a2), before);
    }
}
