//! Lock leaks: a lock a function takes and still holds when it returns on some paths but not on
//! others, or still holds when its loop goes round to take it again — what clang's thread-safety
//! analysis reports as "mutex is still held at the end of function" and "expecting mutex to be
//! held at start of each loop". LOCKSMITH has no such check; RacerX reports lock/unlock pairs
//! that do not match along a path (its §3) with a belief analysis.
//!
//! A function that holds a lock at every return is a lock wrapper (its summary holds the lock,
//! [`super::locksets`]), by design, and so is one that takes the lock only on its way to some
//! returns (`db_enum_begin` returning NULL before it locks). A leak is a lock certainly held at
//! the end of one returning block, and taken since entry without a release on the way (not the
//! caller's lock released and taken again), that another returning block does not certainly
//! hold and may have released on its way: the early `return -1;` between `lock` and `unlock`.
//! In a loop, a leak is a round that ends holding a lock the loop takes afresh (`continue`
//! before the unlock): the lock certainly held at the end of a block from where a straight way
//! without a release leads back to the loop's head, where it is not certainly held.
//!
//! The lock sets are those of the lock order ([`Holds::Order`](super::locksets::Holds)), where
//! every lock call counts, linear or not. Left out,
//! as not leaks by design: a return on a lock call's failure (`if (lock(&m) != 0) return -1;`,
//! [`super::EventBlock::lock_failure`]), a lock the function takes with a try-lock (its result
//! says whether it holds it), a lock that stands for no lock the program made, a lock the
//! function only takes again in a condition wait (its caller holds it), and, in loops, a lock
//! that may be a recursive mutex.
//!
//! This module decides leaks only; it never names a lock or a position.

use std::collections::BTreeSet;

use super::linearity::Linearity;
use super::locksets::{translate, Locksets, State};
use super::{AcqId, Event, FnId, ThreadProgram};
use crate::constraints::{Constraints, Lock, Site};
use crate::locks::LockTable;
use crate::scope::ScopeTree;

/// Where a leaked lock is still held.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LeakAt {
    /// Held when the function returns from the end of block `held`, not when it returns from
    /// the end of block `free`.
    Return { held: u32, free: u32 },
    /// Taken again by `again`, inside the loop of the edge from block `from` back to its head
    /// `head`, after a round that ended holding it.
    Loop { from: u32, head: u32, again: Taken },
}

/// How a function takes the leaked lock: a lock call of its own, or a call of a function that
/// returns holding it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Taken {
    Acquire(AcqId),
    Call(Site),
}

/// A lock leak of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockLeak {
    pub func: FnId,
    /// The lock, as the function names it (a class representative).
    pub lock: Lock,
    pub at: LeakAt,
    /// Where the function takes the lock, in block and event order.
    pub taken: Vec<Taken>,
}

/// What the search for lock leaks reads.
pub struct LeakInputs<'a> {
    pub constraints: &'a Constraints,
    pub scopes: &'a ScopeTree,
    pub program: &'a ThreadProgram,
    pub linearity: &'a Linearity,
    /// The lock sets of the lock order.
    pub ls: &'a Locksets,
}

/// The lock leaks of every function, by function, then lock; one per function and lock (a
/// leak at a return before one in a loop).
pub fn lock_leaks(inputs: &LeakInputs<'_>, locks: &mut LockTable) -> Vec<LockLeak> {
    let recursive: BTreeSet<Lock> = inputs
        .program
        .attributed_locks
        .iter()
        .map(|&l| locks.find(l))
        .collect();
    let mut out = Vec::new();
    for (f, body) in inputs.program.funcs.iter_enumerated() {
        if body.blocks.is_empty() {
            continue;
        }
        let mut found: Vec<(Lock, LeakAt)> = Vec::new();
        for (lock, at) in at_returns(inputs, locks, f)
            .into_iter()
            .chain(in_loops(inputs, locks, f, &recursive))
        {
            if !found.iter().any(|&(l, _)| l == lock) {
                found.push((lock, at));
            }
        }
        found.sort();
        for (lock, at) in found {
            let taken: Vec<Taken> = match takings(inputs, locks, f, lock) {
                Some(t) if !t.is_empty() => t.into_iter().map(|(_, t)| t).collect(),
                _ => continue,
            };
            out.push(LockLeak {
                func: f,
                lock,
                at,
                taken,
            });
        }
    }
    out
}

/// The locks certainly held, as class representatives, in a state (none where no path reaches).
fn held(inputs: &LeakInputs<'_>, locks: &mut LockTable, st: State) -> Vec<Lock> {
    match st.held {
        Some(h) => inputs
            .ls
            .sets
            .get(h)
            .iter()
            .map(|x| locks.find(x.lock))
            .collect(),
        None => Vec::new(),
    }
}

/// Leaks at returns: held at the end of one returning block, taken since entry without a
/// release, and not held at the end of another, which may have released it.
fn at_returns(inputs: &LeakInputs<'_>, locks: &mut LockTable, f: FnId) -> Vec<(Lock, LeakAt)> {
    let blocks = &inputs.program.funcs[f].blocks;
    let bounds = &inputs.ls.bounds[f];
    let returns: Vec<u32> = (0..blocks.len())
        .filter(|&b| blocks[b].returns && bounds[b].1.held.is_some())
        .map(|b| b as u32)
        .collect();
    let mut out = Vec::new();
    for &r in returns
        .iter()
        .filter(|&&r| !blocks[r as usize].lock_failure)
    {
        let end = bounds[r as usize].1;
        let released = inputs.ls.sets.get(end.released).to_vec();
        for lock in held(inputs, locks, end) {
            if released.iter().any(|x| locks.find(x.lock) == lock) {
                continue;
            }
            let free = returns.iter().copied().find(|&o| {
                let end = bounds[o as usize].1;
                let released = inputs.ls.sets.get(end.released).to_vec();
                !held(inputs, locks, end).contains(&lock)
                    && released.iter().any(|x| locks.find(x.lock) == lock)
            });
            if let Some(free) = free {
                out.push((lock, LeakAt::Return { held: r, free }));
            }
        }
    }
    out
}

/// Leaks in loops: a lock certainly held at the end of a block inside a loop, from where a
/// straight way (blocks with one successor, no release of the lock) leads back to the loop's
/// head, where it is not certainly held — the round that went that way (`continue` before the
/// unlock) ends holding it — while the loop takes it afresh (a lock call of its own or a call
/// that returns holding it; a condition wait's taking its lock again is none). Only a straight
/// way counts: a lock taken and released under one repeated condition (`if (c) lock(&m); …
/// if (c) unlock(&m);`) is held at a branch on every way back, which the lock sets cannot tell
/// apart from a leak.
fn in_loops(
    inputs: &LeakInputs<'_>,
    locks: &mut LockTable,
    f: FnId,
    recursive: &BTreeSet<Lock>,
) -> Vec<(Lock, LeakAt)> {
    let blocks = &inputs.program.funcs[f].blocks;
    let bounds = &inputs.ls.bounds[f];
    let mut out = Vec::new();
    // Most functions end no block holding a lock: nothing to look for in their loops.
    let holds_somewhere = bounds
        .iter()
        .any(|(_, end)| end.held.is_some_and(|h| !inputs.ls.sets.get(h).is_empty()));
    if !holds_somewhere {
        return out;
    }
    let preds = inputs.program.funcs[f].predecessors();
    let mut taken: Vec<(Lock, Option<Takings>)> = Vec::new();
    for (from, head) in back_edges(inputs.program, f) {
        if bounds[head as usize].0.held.is_none() {
            continue;
        }
        let at_head = held(inputs, locks, bounds[head as usize].0);
        let body = loop_body(&preds, from, head);
        for &u in &body {
            for lock in held(inputs, locks, bounds[u as usize].1) {
                if at_head.contains(&lock) || recursive.contains(&lock) {
                    continue;
                }
                let round_ends = blocks[u as usize]
                    .succs
                    .iter()
                    .any(|&v| straight_back(inputs, locks, f, v, head, lock));
                if !round_ends {
                    continue;
                }
                if !taken.iter().any(|(l, _)| *l == lock) {
                    let t = takings(inputs, locks, f, lock);
                    taken.push((lock, t));
                }
                let again = taken
                    .iter()
                    .find(|(l, _)| *l == lock)
                    .and_then(|(_, t)| t.as_ref())
                    .and_then(|t| t.iter().find(|(b, _)| body.contains(b)));
                if let Some(&(_, again)) = again {
                    out.push((lock, LeakAt::Loop { from, head, again }));
                }
            }
        }
    }
    out
}

/// Whether the way from block `v` goes straight back to `head` (each block on it with one
/// successor) without releasing `lock`.
fn straight_back(
    inputs: &LeakInputs<'_>,
    locks: &mut LockTable,
    f: FnId,
    mut v: u32,
    head: u32,
    lock: Lock,
) -> bool {
    let blocks = &inputs.program.funcs[f].blocks;
    for _ in 0..blocks.len() {
        if v == head {
            return true;
        }
        if inputs.ls.bounds[f][v as usize].1.held.is_none() {
            return false;
        }
        let releases = blocks[v as usize].events.iter().any(|e| match *e {
            Event::Release(l) => locks.find(l) == lock,
            Event::Call { callee, site, .. } => {
                let released = inputs.ls.summary[callee].released;
                let callee_released = inputs.ls.sets.get(released).to_vec();
                callee_released.iter().any(|x| {
                    translate(inputs.constraints, inputs.scopes, locks, site, x.lock)
                        .is_none_or(|t| locks.find(t) == lock)
                })
            }
            _ => false,
        });
        match blocks[v as usize].succs.as_slice() {
            [next] if !releases => v = *next,
            _ => return false,
        }
    }
    false
}

/// The locks event `e` takes afresh, as the function names them: a lock call that waits (not
/// a condition wait's taking its lock again), or a call of a function that returns holding them.
fn fresh_takings(inputs: &LeakInputs<'_>, locks: &mut LockTable, e: &Event) -> Vec<(Lock, Taken)> {
    match *e {
        Event::Acquire(l, _, Some(acq)) => {
            let info = inputs.program.acquisitions[acq];
            if info.waits && !info.retakes {
                vec![(locks.find(l), Taken::Acquire(acq))]
            } else {
                Vec::new()
            }
        }
        Event::Call { site, callee, .. } => {
            let Some(h) = inputs.ls.summary[callee].held else {
                return Vec::new();
            };
            let callee_holds = inputs.ls.sets.get(h).to_vec();
            let mut out = Vec::new();
            for x in callee_holds {
                if let Some(t) = translate(inputs.constraints, inputs.scopes, locks, site, x.lock) {
                    out.push((locks.find(t), Taken::Call(site)));
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The edges of `f`'s control flow that go back to a block on the depth-first search's stack
/// from the entry, in the search's order.
fn back_edges(p: &ThreadProgram, f: FnId) -> Vec<(u32, u32)> {
    let blocks = &p.funcs[f].blocks;
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; blocks.len()];
    let mut out = Vec::new();
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    state[0] = 1;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        match blocks[b as usize].succs.get(*next).copied() {
            Some(s) => {
                *next += 1;
                match state[s as usize] {
                    0 => {
                        state[s as usize] = 1;
                        stack.push((s, 0));
                    }
                    1 => out.push((b, s)),
                    _ => {}
                }
            }
            None => {
                state[b as usize] = 2;
                stack.pop();
            }
        }
    }
    out
}

/// Where a function takes a lock: each taking with its block ([`takings`]).
type Takings = Vec<(u32, Taken)>;

/// The blocks of the loop of back edge `from → head`: the head, and the blocks that reach
/// `from` without passing through it.
fn loop_body(preds: &[Vec<u32>], from: u32, head: u32) -> BTreeSet<u32> {
    let mut body: BTreeSet<u32> = BTreeSet::from([head]);
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        if body.insert(b) {
            work.extend(preds[b as usize].iter().copied());
        }
    }
    body
}

/// Where `f` takes `lock`, by block: its lock calls of it, and its calls of functions that
/// return holding it (not a condition wait's taking it again). `None` when one of its lock
/// calls of it is a try-lock, or the lock stands for no lock the program made.
fn takings(inputs: &LeakInputs<'_>, locks: &mut LockTable, f: FnId, lock: Lock) -> Option<Takings> {
    if inputs.linearity.is_ungrounded(locks, lock) {
        return None;
    }
    let mut out = Vec::new();
    for (b, block) in inputs.program.funcs[f].blocks.iter().enumerate() {
        for e in &block.events {
            if let Event::Acquire(l, _, Some(acq)) = *e {
                if locks.find(l) == lock && !inputs.program.acquisitions[acq].waits {
                    return None;
                }
            }
            for (l, t) in fresh_takings(inputs, locks, e) {
                if l == lock {
                    out.push((b as u32, t));
                }
            }
        }
    }
    Some(out)
}
