//! The thread analysis agrees with the naive references of `solver::threads::naive` on random
//! small event graphs.
//!
//! Programs have two to four functions of up to four blocks of up to four events; `fn0` is
//! `main`. Every function has its own scope and every lock is a plain lock of the root scope, so no
//! lock is ever translated at a call and every lock is linear. Handles are local to the function
//! that forks them, as the front end makes them: `fn f` uses handles `2f` and `2f + 1` and only
//! `f` joins them. In *precise* recipes every call and fork goes to a later function (no
//! recursion, no fork cycle) and every block lies on a path from the entry to a return.
//!
//! What is asserted:
//!
//! - locksets, for every function taken as a thread root and every call stack (at most [`DEPTH`]
//!   frames) reaching an access in the naive runs: the fast analysis reaches it too (no ⊤ on the
//!   way), and the locks it says are held there — the relative sets composed down the stack as
//!   `facts` does it — are held on every run: `fast ⊆ naive`, and `fast = naive` when no function
//!   is recursive;
//! - may-happen-in-parallel, for every function `f`, point `at` of `f` and pair `(k, site)`: if
//!   the naive runs of `f` find a thread of `site`, started at point `k`, running before `at`, then
//!   so does the fast analysis, `Mhp::live_at(f, site, k, at, false)`: `naive ⊆ fast`, and
//!   `fast = naive` on precise recipes (`mhp_sound_everywhere` asserts `naive ⊆ fast` on every
//!   program). The two soundness bugs this test found, threads started by a thread and joins
//!   in recursive functions, each keep a hand-written regression test at the end;
//! - races, on programs without locks whose accesses read and write [`RHOS`] locations: every
//!   location on which two threads of some interleaving (at most [`THREADS`] threads, calls
//!   [`DEPTH`] deep) stand at accesses at the same moment, one writing, is reported by the whole
//!   thread analysis (`naive ⊆ fast`). This checks the check's ordering of accesses, not only
//!   [`Mhp`]. `main` is never called or forked in these programs: the analysis takes it as the
//!   root and follows no call or fork of it. The same on programs with lock calls on locks of
//!   one global object, where a lock call waits while another thread holds the lock
//!   (`races_sound_with_locks`).

use std::collections::BTreeSet;

use proptest::prelude::*;
use solver::ids::Idx;
use solver::threads::linearity::{Grounding, Linearity};
use solver::threads::locksets::Held;
use solver::threads::mhp::Mhp;
use solver::threads::naive::{self, Pos};
use solver::threads::structure::Structure;
use solver::threads::Mode;
use solver::threads::{
    locksets, AccessId, AccessInfo, Event, EventBlock, FnBody, FnId, ObjectInfo, ThreadHandle,
    ThreadProgram,
};
use solver::{Constraints, Lock, Rho, RhoKind, Scope, Site, SiteKind};

/// The most frames the naive runs explore (deeper only with recursion).
const DEPTH: usize = 4;
const LOCKS: usize = 3;
/// The locations of a recipe without locks.
const RHOS: usize = 3;
/// The most threads (`main` included) of the runs the race check explores.
const THREADS: usize = 4;
/// The most states of one program the race check explores.
const STATES: usize = 50_000;
/// The same with locks ([`Recipe::locked_races`]).
const STATES_LOCKED: usize = 5_000;

#[derive(Debug, Clone)]
struct BlockRecipe {
    /// (kind, target, handle) per event; see [`build`].
    events: Vec<(u8, usize, usize)>,
    succs: Vec<usize>,
    /// An edge to the next block.
    chain: bool,
    returns: bool,
}

#[derive(Debug, Clone)]
struct Recipe {
    precise: bool,
    /// Lock events; without them, the accesses are spread over [`RHOS`] locations, reads and
    /// writes, for the race check.
    locks: bool,
    /// Lock events and accesses spread as for the race check, with every lock in a global
    /// object (so that the analysis takes each for one lock the program made).
    locked_races: bool,
    /// Create wrappers: calls with a handle of the caller, and forks with the function's
    /// wrapped handle ([`wrapped`]), which no join names.
    wrappers: bool,
    /// The last function has no body.
    external: bool,
    funcs: Vec<Vec<BlockRecipe>>,
}

fn block() -> impl Strategy<Value = BlockRecipe> {
    (
        prop::collection::vec((0u8..10, 0usize..8, 0usize..8), 0..5),
        prop::collection::vec(0usize..4, 0..2),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(events, succs, chain, returns)| BlockRecipe {
            events,
            succs,
            chain,
            returns,
        })
}

fn recipe() -> impl Strategy<Value = Recipe> {
    (
        any::<bool>(),
        prop::bool::weighted(0.2),
        prop::collection::vec(prop::collection::vec(block(), 1..5), 2..5),
    )
        .prop_map(|(precise, external, funcs)| Recipe {
            precise,
            locks: true,
            locked_races: false,
            wrappers: false,
            external,
            funcs,
        })
}

/// A recipe without lock events (see [`Recipe::locks`]).
fn race_recipe() -> impl Strategy<Value = Recipe> {
    recipe().prop_map(|r| Recipe {
        locks: false,
        wrappers: true,
        ..r
    })
}

/// A race recipe with lock events (see [`Recipe::locked_races`]).
fn locked_race_recipe() -> impl Strategy<Value = Recipe> {
    recipe().prop_map(|r| Recipe {
        locked_races: true,
        wrappers: true,
        ..r
    })
}

/// A recipe without lock events where forks and joins are three times as frequent, so that
/// threads often start threads and join them between accesses.
fn nested_race_recipe() -> impl Strategy<Value = Recipe> {
    const KINDS: [u8; 10] = [9, 9, 9, 6, 6, 7, 8, 8, 8, 5];
    race_recipe().prop_map(|mut r| {
        for blocks in &mut r.funcs {
            for b in blocks {
                for e in &mut b.events {
                    e.0 = KINDS[e.0 as usize];
                }
            }
        }
        r
    })
}

/// The handle of function `f`'s forks as a create wrapper ([`ThreadProgram::wrapped`]).
fn wrapped(f: usize) -> ThreadHandle {
    ThreadHandle((100 + f) as u32)
}

/// Builds the constraints (scopes, locks, sites) and the event graphs of a recipe.
fn build(r: &Recipe) -> (Constraints, ThreadProgram) {
    let mut c = Constraints::new();
    let nf = r.funcs.len();
    let scopes: Vec<Scope> = (0..nf).map(|_| c.new_scope(Scope::ROOT)).collect();
    for _ in 0..LOCKS {
        c.new_lock(Scope::ROOT);
    }
    let rhos: Vec<Rho> = (0..RHOS)
        .map(|_| c.new_rho(Scope::ROOT, RhoKind::Plain))
        .collect();
    let mut p = ThreadProgram {
        main: Some(FnId(0)),
        checked: rhos.clone(),
        wrapped: (0..nf).map(wrapped).collect(),
        ..ThreadProgram::default()
    };
    if r.locked_races {
        p.objects.push(ObjectInfo {
            locks: (0..LOCKS).map(Lock::new).collect(),
            array: false,
            array_locks: Vec::new(),
        });
    }
    for (f, recipe_blocks) in r.funcs.iter().enumerate() {
        let mut blocks = Vec::new();
        let nb = recipe_blocks.len();
        let external = r.external && f == nf - 1;
        for (b, br) in recipe_blocks.iter().enumerate().filter(|_| !external) {
            let mut events = Vec::new();
            for &(kind, target, handle) in &br.events {
                let callee = if !r.precise && r.locks && !r.locked_races {
                    Some(target % nf)
                } else if !r.precise {
                    // `main` is the root: the analysis never follows a call or a fork of it
                    // (no C program calls or starts `main`).
                    Some(1 + target % (nf - 1))
                } else if f + 1 < nf {
                    Some(f + 1 + target % (nf - f - 1))
                } else {
                    None
                };
                let own = |j: usize| ThreadHandle((2 * f + j) as u32);
                let kind = if r.locks || kind > 3 { kind } else { 9 };
                let e = match (kind, callee) {
                    (0, _) => Event::Acquire(Lock::new(target % LOCKS), Mode::Exclusive, None),
                    (1, _) => Event::Acquire(Lock::new(target % LOCKS), Mode::Shared, None),
                    (2 | 3, _) => Event::Release(Lock::new(target % LOCKS)),
                    (5, Some(g)) => Event::Call {
                        site: c.new_site(scopes[g], scopes[f], SiteKind::Inst),
                        callee: FnId::new(g),
                        handle: (r.wrappers && handle >= 5).then(|| own(handle % 2)),
                    },
                    (6 | 7, Some(g)) => Event::Fork {
                        site: c.new_site(scopes[g], scopes[f], SiteKind::Inst),
                        callee: FnId::new(g),
                        handle: if r.wrappers && handle == 7 {
                            Some(wrapped(f))
                        } else {
                            (handle % 3 > 0).then(|| own(handle % 3 - 1))
                        },
                    },
                    (8, _) => Event::Join(own(handle % 2)),
                    _ if r.locks && !r.locked_races => Event::Access(p.accesses.push(AccessInfo {
                        rho: rhos[0],
                        write: true,
                        opened: None,
                        own_copy: false,
                    })),
                    _ => Event::Access(p.accesses.push(AccessInfo {
                        rho: rhos[target % RHOS],
                        write: handle % 2 == 0,
                        opened: None,
                        own_copy: false,
                    })),
                };
                events.push(e);
            }
            let mut succs: Vec<u32> = br.succs.iter().map(|&s| (s % nb) as u32).collect();
            let chain = r.precise || br.chain;
            if chain && b + 1 < nb {
                succs.push(b as u32 + 1);
            }
            succs.sort();
            succs.dedup();
            let returns = br.returns || (b + 1 == nb && (r.precise || br.chain));
            blocks.push(EventBlock {
                events,
                succs,
                returns,
                lock_failure: false,
                stable_test: None,
            });
        }
        p.funcs.push(FnBody {
            scope: scopes[f],
            blocks,
        });
    }
    (c, p)
}

/// The fast analysis's locks held at an access reached with `stack`, relative to the bottom
/// frame's entry: the relative lockset at the access, carried down through each call as
/// `facts` does (`held ∪ (caller's held − released)`). `None` if a state on the way is ⊤
/// (unreachable for the fast analysis).
fn fast_lockset(ls: &locksets::Locksets, stack: &[Pos]) -> Option<BTreeSet<Held>> {
    let state = |pos: &Pos| ls.before[pos.func][pos.block as usize][pos.index as usize];
    // Second holds of a lock (`Held::again`) are left out: the fast analysis keeps them
    // relative to a function's entry, the slow one absolutely, and they order nothing.
    let set = |id| -> BTreeSet<Held> {
        ls.sets
            .get(id)
            .iter()
            .copied()
            .filter(|h| !h.again)
            .collect()
    };
    let top = state(stack.last()?);
    let mut held = set(top.held?);
    let mut released = set(top.released);
    for pos in stack.iter().rev().skip(1) {
        let caller = state(pos);
        held.extend(set(caller.held?).difference(&released));
        let rel_kept: BTreeSet<Held> = set(caller.released).difference(&held).copied().collect();
        released.extend(rel_kept);
    }
    Some(held)
}

/// For `f`'s points: the `(k, site)` pairs the fast analysis says may be running there.
fn fast_live(m: &Mhp, c: &Constraints, f: FnId, points: u32) -> Vec<BTreeSet<(u32, Site)>> {
    (0..points)
        .map(|at| {
            let mut live = BTreeSet::new();
            for k in 0..points {
                for site in c.sites.indices() {
                    if m.live_at(f, site, k, at, false) {
                        live.insert((k, site));
                    }
                }
            }
            live
        })
        .collect()
}

fn points(p: &ThreadProgram, f: FnId) -> u32 {
    p.funcs[f]
        .blocks
        .iter()
        .map(|b| b.events.len() as u32)
        .sum()
}

/// Checks that the thread analysis reports every race the naive runs find, exploring at most
/// `states` states.
fn check_races(r: &Recipe, states: usize) -> Result<(), TestCaseError> {
    let (c, p) = build(r);
    let slow = naive::races(&p, DEPTH, THREADS, states);
    let sol = solver::threads::solve(&c, &p, solver::Techniques::default());
    let fast: BTreeSet<Rho> = sol.warnings.iter().map(|w| w.rho).collect();
    let missed: Vec<&Rho> = slow.difference(&fast).collect();
    prop_assert!(missed.is_empty(), "missed races on {:?}", missed);
    Ok(())
}

/// Checks the fast MHP against the naive one: `naive ⊆ fast`, and equality if `exact`.
fn check_mhp(c: &Constraints, p: &ThreadProgram, exact: bool) -> Result<(), TestCaseError> {
    let s = Structure::new(p);
    let m = Mhp::new(p, &s, true, &Default::default());
    let live = naive::live_threads(p, DEPTH);
    for f in p.funcs.indices() {
        let slow = &live.before[f];
        if !m.may_fork[f] {
            prop_assert!(slow.iter().all(BTreeSet::is_empty), "{:?} forks", f);
            continue;
        }
        let fast = fast_live(&m, c, f, points(p, f));
        for (at, (slow, fast)) in slow.iter().zip(&fast).enumerate() {
            let missed: Vec<_> = slow.difference(fast).collect();
            prop_assert!(
                missed.is_empty(),
                "{:?} point {}: missed {:?}",
                f,
                at,
                missed
            );
            if exact {
                prop_assert_eq!(slow, fast, "{:?} point {}", f, at);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Must-locksets: sound everywhere, with locks that count their holds (recursive mutexes)
    /// and with locks whose relock fails; exact without recursion for the latter (the fast
    /// analysis counts a function's own holds to two only).
    #[test]
    fn locksets_agree(r in recipe()) {
        let (c, mut p) = build(&r);
        let mut scopes = c.scopes.clone();
        scopes.freeze();
        let s = Structure::new(&p);
        let linear = Linearity::all_linear(Grounding::everything());
        let recursive = s.recursive.iter().any(|&r| r);
        for counting in [false, true] {
            p.relock_fails = if counting {
                Vec::new()
            } else {
                (0..LOCKS).map(Lock::new).collect()
            };
            let mut table = solver::locks::unify_all(&c, &scopes);
            let ls = locksets::compute(
                &c,
                &scopes,
                &mut table,
                &linear,
                &p,
                &s,
                locksets::Holds::Protection,
            );
            for root in p.funcs.indices() {
                for (stack, slow) in naive::must_locksets(&p, root, DEPTH) {
                    let fast = fast_lockset(&ls, &stack);
                    prop_assert!(fast.is_some(), "{:?} unreachable for the fast analysis", stack);
                    let fast = fast.unwrap();
                    prop_assert!(
                        fast.is_subset(&slow),
                        "{:?} (counting: {}): {:?} not all held {:?}", stack, counting, fast, slow
                    );
                    if !recursive && !counting {
                        prop_assert_eq!(fast, slow, "{:?}", stack);
                    }
                }
            }
        }
    }

    /// May-happen-in-parallel: sound, and exact on precise recipes.
    #[test]
    fn mhp_agrees(r in recipe()) {
        let (c, p) = build(&r);
        check_mhp(&c, &p, r.precise)?;
    }

    /// Soundness of may-happen-in-parallel on every program, recursion and fork cycles included.
    #[test]
    fn mhp_sound_everywhere(r in recipe()) {
        let (c, p) = build(&r);
        check_mhp(&c, &p, false)?;
    }

    /// Soundness of may-happen-in-parallel with create wrappers.
    #[test]
    fn mhp_sound_with_wrappers(r in race_recipe()) {
        let (c, p) = build(&r);
        check_mhp(&c, &p, false)?;
    }

    /// Soundness of the whole thread analysis: every location on which two threads of some
    /// interleaving race is reported, recursion and fork cycles included.
    #[test]
    fn races_sound_everywhere(r in race_recipe()) {
        check_races(&r, STATES)?;
    }

    /// The same with threads that start and join threads of their own.
    #[test]
    fn nested_races_sound_everywhere(r in nested_race_recipe()) {
        check_races(&r, STATES)?;
    }
}

proptest! {
    // The locks each thread holds multiply the states of a run: fewer cases, each explored less
    // far (500 cases of 50,000 states took nine minutes; these take seconds).
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The race check with locks: a lock call waits while another thread holds its lock, so
    /// these runs race only where no common lock orders the two accesses. An analysis that kept
    /// a lock too many in some fact (the locks an access holds below a function are kept with
    /// its location, those its callers hold in its context) misses their races.
    #[test]
    fn races_sound_with_locks(r in locked_race_recipe()) {
        check_races(&r, STATES_LOCKED)?;
    }
}

/// A block of a hand-written program.
fn blk(events: Vec<Event>, succs: Vec<u32>, returns: bool) -> EventBlock {
    EventBlock {
        events,
        succs,
        returns,
        lock_failure: false,
        stable_test: None,
    }
}

/// The frame of a hand-written program: `nf` functions without blocks yet, each in its own scope,
/// one write and one read of the checked location `ρ0`, and a site into the scope of each of
/// `targets`.
fn hand_written(
    nf: usize,
    main: u32,
    targets: &[usize],
) -> (Constraints, ThreadProgram, Vec<Site>) {
    let mut c = Constraints::new();
    let scopes: Vec<Scope> = (0..nf).map(|_| c.new_scope(Scope::ROOT)).collect();
    let rho = c.new_rho(Scope::ROOT, RhoKind::Alloc);
    let sites = targets
        .iter()
        .map(|&g| c.new_site(scopes[g], Scope::ROOT, SiteKind::Inst))
        .collect();
    let mut p = ThreadProgram {
        main: Some(FnId(main)),
        checked: vec![rho],
        ..ThreadProgram::default()
    };
    p.accesses.push(AccessInfo {
        rho,
        write: true,
        opened: None,
        own_copy: false,
    });
    p.accesses.push(AccessInfo {
        rho,
        write: false,
        opened: None,
        own_copy: false,
    });
    for scope in scopes {
        p.funcs.push(FnBody {
            scope,
            blocks: Vec::new(),
        });
    }
    (c, p, sites)
}

fn fork(site: Site, callee: u32, handle: Option<u32>) -> Event {
    Event::Fork {
        site,
        callee: FnId(callee),
        handle: handle.map(ThreadHandle),
    }
}

const WRITE: Event = Event::Access(AccessId(0));
const READ: Event = Event::Access(AccessId(1));

/// A soundness bug this test found: a listener thread forks workers in a loop that never ends;
/// `main` writes after starting the listener, a worker reads. The workers run while `main`
/// writes, but the fork rule used to keep only the threads the listener leaves running at its
/// return (it never returns), so the race was missed when the listener was analysed first
/// (here `fn0`; numbered after `main` the race was found).
#[test]
fn workers_of_a_listener_run_while_main_does() {
    let (c, mut p, sites) = hand_written(3, 1, &[0, 2]);
    let (s0, s1) = (sites[0], sites[1]);
    // fn0, the listener: `for (;;) pthread_create(&t, 0, worker, 0);`
    p.funcs[FnId(0)].blocks = vec![blk(vec![fork(s1, 2, Some(0))], vec![0], false)];
    // fn1, main: `pthread_create(&l, 0, listener, 0); x = 1;`
    p.funcs[FnId(1)].blocks = vec![blk(vec![fork(s0, 0, None), WRITE], vec![], true)];
    // fn2, a worker: `… = x;`
    p.funcs[FnId(2)].blocks = vec![blk(vec![READ], vec![], true)];
    let live = naive::live_threads(&p, DEPTH);
    assert!(live.before[FnId(1)][1].contains(&(0, s1)));
    let s = Structure::new(&p);
    let m = Mhp::new(&p, &s, true, &Default::default());
    assert!(
        m.live_at(FnId(1), s1, 0, 1, false),
        "a worker is running at the write"
    );
    let sol = solver::threads::solve(&c, &p, solver::Techniques::default());
    assert_eq!(sol.warnings.len(), 1, "the race on ρ0");
}

/// A soundness bug this test found: a join used to end every thread of the handle's sites that
/// the function tracks — also those started by *other* runs of the function when forks (or
/// calls) lead back to it. Here `f` forks `f` and joins its own child before writing;
/// the child may return without joining the grandchild it forked, which writes too, at the same
/// time as the outer run.
#[test]
fn join_ends_only_the_threads_of_its_own_run() {
    let (c, mut p, sites) = hand_written(2, 0, &[1, 1]);
    let (call, s) = (sites[0], sites[1]);
    // fn0, main: `f();`
    p.funcs[FnId(0)].blocks = vec![blk(
        vec![Event::Call {
            site: call,
            callee: FnId(1),
            handle: None,
        }],
        vec![],
        true,
    )];
    // fn1, f: `pthread_create(&t, 0, f, 0); if (…) { pthread_join(t, 0); x = 1; }`
    p.funcs[FnId(1)].blocks = vec![
        blk(vec![fork(s, 1, Some(0))], vec![1, 2], false),
        blk(vec![Event::Join(ThreadHandle(0)), WRITE], vec![], true),
        blk(vec![], vec![], true),
    ];
    let live = naive::live_threads(&p, DEPTH);
    assert!(live.before[FnId(1)][2].contains(&(0, s)));
    let st = Structure::new(&p);
    let m = Mhp::new(&p, &st, true, &Default::default());
    assert!(
        m.live_at(FnId(1), s, 0, 2, false),
        "a grandchild is running at the write"
    );
    let sol = solver::threads::solve(&c, &p, solver::Techniques::default());
    assert_eq!(sol.warnings.len(), 1, "the race on ρ0");
}

/// A create wrapper: `main` calls `spawn(&t)`, which starts `child` (whose id is `t`), and then
/// joins `t`. The join ends `child`, but not the grandchild `child` starts and leaves running:
/// the grandchild still runs at `main`'s write.
#[test]
fn wrapper_join_ends_its_thread_not_a_grandchild() {
    let (_, mut p, sites) = hand_written(4, 0, &[1, 2, 3]);
    let (call, s_child, s_grand) = (sites[0], sites[1], sites[2]);
    let h = ThreadHandle(0);
    p.wrapped = vec![ThreadHandle(1)];
    // fn0, main: `spawn(&t); pthread_join(t, 0); x = 1;`
    p.funcs[FnId(0)].blocks = vec![blk(
        vec![
            Event::Call {
                site: call,
                callee: FnId(1),
                handle: Some(h),
            },
            Event::Join(h),
            WRITE,
        ],
        vec![],
        true,
    )];
    // fn1, spawn: `pthread_create(t, 0, child, 0);`
    p.funcs[FnId(1)].blocks = vec![blk(vec![fork(s_child, 2, Some(1))], vec![], true)];
    // fn2, child: `pthread_create(&g, 0, grandchild, 0); … = x;`
    p.funcs[FnId(2)].blocks = vec![blk(vec![fork(s_grand, 3, None), READ], vec![], true)];
    // fn3, grandchild: `… = x;`
    p.funcs[FnId(3)].blocks = vec![blk(vec![READ], vec![], true)];
    let live = naive::live_threads(&p, DEPTH);
    assert!(!live.before[FnId(0)][2].contains(&(0, s_child)));
    assert!(live.before[FnId(0)][2].contains(&(0, s_grand)));
    let s = Structure::new(&p);
    let m = Mhp::new(&p, &s, true, &Default::default());
    assert!(
        !m.live_at(FnId(0), s_child, 0, 2, false),
        "the child was joined"
    );
    assert!(
        m.live_at(FnId(0), s_grand, 0, 2, false),
        "the grandchild runs"
    );
}
