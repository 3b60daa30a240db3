//! Obviously correct, slow references for the thread analysis, for property tests only
//! (`solver/tests/naive_threads.rs`).
//!
//! Instead of summaries, relative sets and worklists, these *run* the event graphs: an explicit
//! exploration of every reachable abstract state of one thread, with calls inlined on a call stack
//! of at most `depth` frames (deeper calls are dropped, so with recursion the runs explored are
//! only some of the runs: a sound comparison checks that whatever they find, the fast analysis
//! finds too). Every branch is feasible, and a block that `returns` may also go on to its
//! successors.
//!
//! - [`must_locksets`]: the locks held at each access, intersected over every explored run that
//!   reaches it with the same call stack (plain lock ids, every lock linear).
//! - [`live_threads`]: for each point of each function, the threads started during one run of
//!   that function that may still be running there (the relation [`super::mhp`] computes).
//! - [`races`]: the locations two threads of a whole-program run may access at the same moment,
//!   found by running every interleaving of the program's threads, a lock call waiting while
//!   another thread holds its lock (what [`super::check`] decides).
//!
//! Thread handles are *local*, as the front end makes them: a `Join(h)` ends every thread that
//! the same run of the same function has forked with handle `h` (and nothing else), or that a
//! create wrapper it called with handle `h` forked with a handle of [`ThreadProgram::wrapped`].

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::locksets::Held;
use super::{Event, FnId, Mode, ThreadHandle, ThreadProgram};
use crate::constraints::{Lock, Site};
use crate::ids::IndexVec;

/// Where one frame of a call stack stands: before event `index` of `block` of `func`
/// (`index == events.len()` at the end of the block). Every frame but the top one stands at the
/// call it is waiting for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub func: FnId,
    pub block: u32,
    pub index: u32,
}

/// The frame (by stack height) whose joins of a handle end a thread forked by the top frame of
/// `stack` with `handle`: the fork's own frame, or for a wrapped fork ([`ThreadProgram::wrapped`])
/// in a frame entered by a call with a handle, the caller's frame with the call's handle.
fn owner(
    p: &ThreadProgram,
    stack: &[Pos],
    handle: Option<ThreadHandle>,
) -> Option<(usize, ThreadHandle)> {
    let h = handle?;
    let height = stack.len();
    if p.wrapped.contains(&h) && height >= 2 {
        let caller = stack[height - 2];
        let call = p.funcs[caller.func].blocks[caller.block as usize]
            .events
            .get(caller.index as usize);
        if let Some(&Event::Call {
            handle: Some(named),
            ..
        }) = call
        {
            return Some((height - 1, named));
        }
    }
    Some((height, h))
}

/// A control move of the top frame.
enum Move {
    /// Go past the current event.
    Next,
    /// Enter `callee` (its entry block), keeping the caller at the call.
    Enter(FnId),
    /// End of a block: go to a successor, or return to the caller (`None`).
    Leave(Option<u32>),
}

/// The moves from the top frame of `stack`, given the event there (if any).
fn moves(p: &ThreadProgram, stack: &[Pos], depth: usize) -> Vec<Move> {
    let top = *stack.last().expect("a frame");
    let block = &p.funcs[top.func].blocks[top.block as usize];
    match block.events.get(top.index as usize) {
        Some(Event::Call { callee, .. }) if !p.funcs[*callee].blocks.is_empty() => {
            if stack.len() < depth {
                vec![Move::Enter(*callee)]
            } else {
                Vec::new()
            }
        }
        Some(_) => vec![Move::Next],
        None => {
            let mut v: Vec<Move> = block.succs.iter().map(|&s| Move::Leave(Some(s))).collect();
            if block.returns {
                v.push(Move::Leave(None));
            }
            v
        }
    }
}

/// Applies a move to a stack. Returning from the last frame leaves it empty.
fn apply(stack: &mut Vec<Pos>, m: &Move) {
    match *m {
        Move::Next => stack.last_mut().expect("a frame").index += 1,
        Move::Enter(callee) => stack.push(Pos {
            func: callee,
            block: 0,
            index: 0,
        }),
        Move::Leave(Some(s)) => {
            let top = stack.last_mut().expect("a frame");
            top.block = s;
            top.index = 0;
        }
        Move::Leave(None) => {
            stack.pop();
            if let Some(caller) = stack.last_mut() {
                caller.index += 1;
            }
        }
    }
}

/// For every call stack (bottom frame in `root`, top frame at an `Access` event) reached by a run
/// of `root` started with no lock held: the locks held on *every* explored run reaching it.
/// An acquire adds its lock, a release removes it, nothing else changes the set — except that a
/// lock not in [`ThreadProgram::relock_fails`] counts its exclusive holds (exactly, up to
/// [`MAX_HOLDS`]): locked again while held exclusively, it takes one more release to let go.
pub fn must_locksets(
    p: &ThreadProgram,
    root: FnId,
    depth: usize,
) -> BTreeMap<Vec<Pos>, BTreeSet<Held>> {
    let mut out: BTreeMap<Vec<Pos>, BTreeSet<Held>> = BTreeMap::new();
    if p.funcs[root].blocks.is_empty() {
        return out;
    }
    let start = Pos {
        func: root,
        block: 0,
        index: 0,
    };
    let counts = |lock| !p.relock_fails.contains(&lock);
    // A run's state: its call stack, the tokens it holds, and the holds beyond the first of
    // the locks held more than once.
    type RunState = (Vec<Pos>, BTreeSet<Held>, BTreeMap<Lock, u8>);
    let mut seen: HashSet<RunState> = HashSet::new();
    let mut todo: Vec<RunState> = vec![(vec![start], BTreeSet::new(), BTreeMap::new())];
    while let Some(state) = todo.pop() {
        if !seen.insert(state.clone()) {
            continue;
        }
        let (stack, held, extra) = state;
        let mut extra_after = extra.clone();
        let top = *stack.last().expect("a frame");
        let event = p.funcs[top.func].blocks[top.block as usize]
            .events
            .get(top.index as usize);
        let mut held_after = held.clone();
        match event {
            Some(&Event::Access(a)) => {
                let mut held = held.clone();
                if let Some((lock, mode)) = p.accesses[a].opened {
                    for &mode in Held::tokens(mode) {
                        held.insert(Held::new(lock, mode));
                    }
                }
                out.entry(stack.clone())
                    .and_modify(|s| s.retain(|l| held.contains(l)))
                    .or_insert_with(|| held);
            }
            Some(&Event::Acquire(lock, mode, _)) => {
                let exclusive = Held::new(lock, Mode::Exclusive);
                if counts(lock) && mode == Mode::Exclusive && held.contains(&exclusive) {
                    let extra = extra_after.entry(lock).or_insert(0);
                    *extra = (*extra + 1).min(MAX_HOLDS);
                }
                for &mode in Held::tokens(mode) {
                    held_after.insert(Held::new(lock, mode));
                }
            }
            Some(&Event::Release(lock)) => match extra_after.get_mut(&lock) {
                Some(extra) if *extra > 1 => *extra -= 1,
                Some(_) => {
                    extra_after.remove(&lock);
                }
                None => held_after.retain(|h| h.lock != lock),
            },
            _ => {}
        }
        for m in moves(p, &stack, depth) {
            let mut next = stack.clone();
            apply(&mut next, &m);
            if !next.is_empty() {
                todo.push((next, held_after.clone(), extra_after.clone()));
            }
        }
    }
    out
}

/// The most holds beyond the first that [`must_locksets`] counts of one lock (more are not
/// counted, which can only drop the lock early).
pub const MAX_HOLDS: u8 = 16;

/// A thread started during the run being explored, as that run sees it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Started {
    /// The point of the run's own function at which it started: the fork, or the call (of the
    /// run's function) during which a callee forked it.
    point: u32,
    site: Site,
    callee: FnId,
    /// The frame (by stack height) that forked it and the handle it used, while that frame runs.
    owner: Option<(usize, ThreadHandle)>,
}

/// One abstract state of a run of a function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RunState {
    stack: Vec<Pos>,
    /// Threads started by the run's thread that may still be running.
    running: BTreeSet<Started>,
    /// `(point, site)` of threads started by threads started by the run (at `point`), which
    /// those may have left running when they ended: nobody can join them any more.
    orphans: BTreeSet<(u32, Site)>,
}

/// Which threads started during one run of a function may be running at each of its points.
#[derive(Clone, Debug)]
pub struct LiveThreads {
    /// Per function and point (events numbered through the blocks in order, as
    /// [`super::mhp::Point`]): the `(point, site)` pairs of the threads, started by this run of
    /// the function at `point`, that may be running before the event at that point executes.
    pub before: IndexVec<FnId, Vec<BTreeSet<(u32, Site)>>>,
    /// Per function: the fork sites of threads that may be running at some moment of a run of
    /// it, having been started during that run (directly, by callees or by its threads).
    pub during: IndexVec<FnId, BTreeSet<Site>>,
    /// Per function: the fork sites of threads started during a run that may still be running
    /// when it returns.
    pub after: IndexVec<FnId, BTreeSet<Site>>,
}

/// Computes [`LiveThreads`] for every function. A thread keeps running until a join ends it: its
/// own threads may be running whenever it is (it runs at its own pace), and those it leaves
/// running when it ends run on. `during` and `after` of the threads' functions are computed
/// together, from nothing until they stop growing (forks may be cyclic).
pub fn live_threads(p: &ThreadProgram, depth: usize) -> LiveThreads {
    let n = p.funcs.len();
    let mut live = LiveThreads {
        before: IndexVec::from_elem_n(Vec::new(), n),
        during: IndexVec::from_elem_n(BTreeSet::new(), n),
        after: IndexVec::from_elem_n(BTreeSet::new(), n),
    };
    loop {
        let mut changed = false;
        for f in p.funcs.indices() {
            let (before, during, after) = explore_run(p, f, depth, &live);
            changed |= during != live.during[f] || after != live.after[f];
            live.before[f] = before;
            live.during[f] = during;
            live.after[f] = after;
        }
        if !changed {
            return live;
        }
    }
}

/// The `(point, site)` pairs of the threads that a state says may be running.
fn running_pairs(state: &RunState, live: &LiveThreads) -> BTreeSet<(u32, Site)> {
    let mut out = state.orphans.clone();
    for t in &state.running {
        out.insert((t.point, t.site));
        out.extend(live.during[t.callee].iter().map(|&s| (t.point, s)));
    }
    out
}

type RunResult = (Vec<BTreeSet<(u32, Site)>>, BTreeSet<Site>, BTreeSet<Site>);

/// Explores every run of `f`, using `live.during` and `live.after` for the threads it starts.
fn explore_run(p: &ThreadProgram, f: FnId, depth: usize, live: &LiveThreads) -> RunResult {
    let blocks = &p.funcs[f].blocks;
    let mut offsets = Vec::with_capacity(blocks.len());
    let mut total = 0u32;
    for b in blocks {
        offsets.push(total);
        total += b.events.len() as u32;
    }
    let mut before = vec![BTreeSet::new(); total as usize];
    let mut during = BTreeSet::new();
    let mut after = BTreeSet::new();
    if blocks.is_empty() {
        return (before, during, after);
    }
    let start = RunState {
        stack: vec![Pos {
            func: f,
            block: 0,
            index: 0,
        }],
        running: BTreeSet::new(),
        orphans: BTreeSet::new(),
    };
    let mut seen: HashSet<RunState> = HashSet::new();
    let mut todo = vec![start];
    while let Some(state) = todo.pop() {
        if !seen.insert(state.clone()) {
            continue;
        }
        let pairs = running_pairs(&state, live);
        during.extend(pairs.iter().map(|&(_, s)| s));
        let height = state.stack.len();
        let top = state.stack[height - 1];
        let bottom = state.stack[0];
        let point = offsets[bottom.block as usize] + bottom.index;
        let event = p.funcs[top.func].blocks[top.block as usize]
            .events
            .get(top.index as usize);
        if height == 1 && event.is_some() {
            before[point as usize].extend(pairs.iter().copied());
        }
        let mut after_event = state.clone();
        match event {
            Some(&Event::Fork {
                site,
                callee,
                handle,
            }) => {
                after_event.running.insert(Started {
                    point,
                    site,
                    callee,
                    owner: owner(p, &state.stack, handle),
                });
            }
            Some(&Event::Join(h)) => {
                let (ended, kept) = state
                    .running
                    .iter()
                    .cloned()
                    .partition(|t| t.owner == Some((height, h)));
                after_event.running = kept;
                for t in ended {
                    let left = live.after[t.callee].iter().map(|&s| (t.point, s));
                    after_event.orphans.extend(left);
                }
            }
            _ => {}
        }
        for m in moves(p, &state.stack, depth) {
            let mut next = after_event.clone();
            if matches!(m, Move::Leave(None)) {
                // The frame's threads outlive it, but nobody can join them any more.
                next.running = next
                    .running
                    .into_iter()
                    .map(|t| match t.owner {
                        Some((h, _)) if h == height => Started { owner: None, ..t },
                        _ => t,
                    })
                    .collect();
            }
            apply(&mut next.stack, &m);
            if next.stack.is_empty() {
                after.extend(running_pairs(&next, live).iter().map(|&(_, s)| s));
            } else {
                todo.push(next);
            }
        }
    }
    (before, during, after)
}

/// One thread of a whole-program run ([`races`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SimThread {
    /// Its call stack; empty once the thread has ended.
    stack: Vec<Pos>,
    /// The frames that can join it, as (thread, stack height, handle): a `Join(handle)` run by
    /// that frame waits for it. A frame that returns can join nothing any more.
    owners: Vec<(usize, usize, ThreadHandle)>,
    /// The locks it holds, one entry per hold, sorted.
    holds: Vec<Hold>,
}

/// One hold of a lock by a simulated thread.
type Hold = (Lock, Mode);

/// Whether thread `t` of `world` may take `lock` in `mode` now, and its holds after it does:
/// no other thread holds the lock (in either mode, or exclusively for a shared hold), and `t`
/// itself does not hold it for reading only when it asks to write, nor at all when a second lock
/// of it blocks ([`ThreadProgram::relock_fails`]). A recursive mutex counts each hold.
fn acquired(
    p: &ThreadProgram,
    world: &[SimThread],
    t: usize,
    lock: Lock,
    mode: Mode,
) -> Option<Vec<Hold>> {
    use super::Mode::{Exclusive, Shared};
    let others = (world.iter().enumerate()).filter(|&(u, _)| u != t);
    let blocked_by = |m: Mode| mode == Exclusive || m == Exclusive;
    if others
        .flat_map(|(_, u)| u.holds.iter())
        .any(|&(l, m)| l == lock && blocked_by(m))
    {
        return None;
    }
    let own: Vec<Mode> = (world[t].holds.iter())
        .filter(|&&(l, _)| l == lock)
        .map(|&(_, m)| m)
        .collect();
    let upgrade = mode == Exclusive && own.contains(&Shared) && !own.contains(&Exclusive);
    if upgrade || (!own.is_empty() && p.relock_fails.contains(&lock)) {
        return None;
    }
    let mut holds = world[t].holds.clone();
    holds.push((lock, mode));
    holds.sort();
    Some(holds)
}

/// Thread `t`'s holds after it releases `lock` once (an exclusive hold before a shared one);
/// `None` if it holds none, a run this exploration does not follow.
fn released(world: &[SimThread], t: usize, lock: Lock) -> Option<Vec<Hold>> {
    let holds = &world[t].holds;
    let k = (holds.iter().position(|&h| h == (lock, Mode::Exclusive)))
        .or_else(|| holds.iter().position(|&(l, _)| l == lock))?;
    let mut holds = holds.clone();
    holds.remove(k);
    Some(holds)
}

/// The locations on which the interleavings of a whole program race: two different threads stand
/// at accesses to one location at the same moment, at least one of them writing. Every thread is
/// run as the program runs it — `main` first, a fork starting a thread at its function's entry,
/// a `Join(h)` waiting until every thread its frame forked with `h` has ended — with calls
/// inlined on stacks of at most `depth` frames and at most `max_threads` threads in all (a
/// thread that would go deeper or start one more waits forever: the runs explored are some of
/// the program's runs, so whatever race they find, a sound analysis finds too). Every branch is
/// feasible, and a block that `returns` may also go on to its successors. A lock call waits while
/// another thread holds the lock ([`acquired`]), and a thread that would release a lock it does
/// not hold goes no further: every run explored is one the program can make. The exploration
/// stops after `max_states` states (what it found by then are races all the same).
pub fn races(
    p: &ThreadProgram,
    depth: usize,
    max_threads: usize,
    max_states: usize,
) -> BTreeSet<crate::Rho> {
    let mut out = BTreeSet::new();
    let Some(main) = p.main else { return out };
    if p.funcs[main].blocks.is_empty() {
        return out;
    }
    let entry = |func: FnId| Pos {
        func,
        block: 0,
        index: 0,
    };
    let start = vec![SimThread {
        stack: vec![entry(main)],
        owners: Vec::new(),
        holds: Vec::new(),
    }];
    let event_at = |pos: &Pos| -> Option<Event> {
        p.funcs[pos.func].blocks[pos.block as usize]
            .events
            .get(pos.index as usize)
            .copied()
    };
    let mut seen: HashSet<Vec<SimThread>> = HashSet::new();
    seen.insert(start.clone());
    let mut todo = vec![start];
    while let Some(world) = todo.pop() {
        // The accesses every live thread is about to make.
        let at: Vec<(usize, super::AccessId)> = world
            .iter()
            .enumerate()
            .filter_map(|(t, th)| match th.stack.last().and_then(event_at) {
                Some(Event::Access(a)) => Some((t, a)),
                _ => None,
            })
            .collect();
        for (i, &(t1, a1)) in at.iter().enumerate() {
            for &(t2, a2) in &at[i + 1..] {
                let (x, y) = (p.accesses[a1], p.accesses[a2]);
                if t1 != t2 && x.rho == y.rho && (x.write || y.write) {
                    out.insert(x.rho);
                }
            }
        }
        for t in 0..world.len() {
            let Some(&top) = world[t].stack.last() else {
                continue;
            };
            let height = world[t].stack.len();
            let mut after = world.clone();
            match event_at(&top) {
                Some(Event::Fork { callee, handle, .. }) => {
                    if world.len() >= max_threads {
                        continue;
                    }
                    let stack = if p.funcs[callee].blocks.is_empty() {
                        Vec::new()
                    } else {
                        vec![entry(callee)]
                    };
                    let owners = owner(p, &world[t].stack, handle)
                        .map(|(height, h)| (t, height, h))
                        .into_iter()
                        .collect();
                    after.push(SimThread {
                        stack,
                        owners,
                        holds: Vec::new(),
                    });
                }
                Some(Event::Acquire(lock, mode, _)) => match acquired(p, &world, t, lock, mode) {
                    Some(holds) => after[t].holds = holds,
                    None => continue,
                },
                Some(Event::Release(lock)) => match released(&world, t, lock) {
                    Some(holds) => after[t].holds = holds,
                    None => continue,
                },
                Some(Event::Join(h)) => {
                    let waits = world
                        .iter()
                        .any(|u| !u.stack.is_empty() && u.owners.contains(&(t, height, h)));
                    if waits {
                        continue;
                    }
                }
                _ => {}
            }
            for m in moves(p, &world[t].stack, depth) {
                let mut next = after.clone();
                if matches!(m, Move::Leave(None)) {
                    for u in next.iter_mut() {
                        u.owners.retain(|&(ot, oh, _)| (ot, oh) != (t, height));
                    }
                }
                apply(&mut next[t].stack, &m);
                if seen.len() < max_states && seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
    }
    out
}
