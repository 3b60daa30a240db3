//! LOCKSMITH's analysis for C threads (paper §3.1–§3.2): flow-sensitive locksets, correlations
//! carried up to thread roots, sharing, and the consistent-correlation check on lock *sets*.
//!
//! The C front end hands over, besides the label constraints, one *event graph* per function —
//! the paper's state variables ψ with their kinds: `Acquire(ℓ)`, `Release(ℓ)`, `Deref(ρ)`
//! (accesses), calls (splits) and forks — as basic blocks of events. This module never sees C.
//!
//! - [`linearity`] decides which lock labels stand for a single run-time lock (others never
//!   count as held).
//! - [`locksets`] computes, for every event, the locks acquired and possibly released since the
//!   function's entry (relative locksets, with per-function summaries over the call graph's
//!   strongly connected components).
//! - [`facts`] carries each access's correlation `ρ ▷ {ℓ…}` up every call chain to `main`,
//!   translating labels through each site and adding the caller's locks, and through forks
//!   without the parent's locks.
//! - [`privacy`] finds the labels private to one run of a function (checked there, not at `main`).
//! - [`mhp`] computes which threads may be running at each point of a function, with joins.
//! - [`nest`] keeps, for a fact that left a thread, where it was in that thread's function.
//! - [`check`] reports the locations with two accesses, one writing, that may happen at the same
//!   time in two threads without a common lock.
//! - [`order`] carries every lock call, with the locks held, up every call chain (the lock
//!   order), and [`deadlock`] reports its cycles among threads and the self-deadlocks.
//! - [`naive`] has slow reference versions of the locksets and of [`mhp`], for tests only.

pub mod bounds;
pub mod check;
pub mod contexts;
pub mod deadlock;
pub mod epochs;
pub mod facts;
pub mod held_at;
pub mod leaks;
pub mod linearity;
pub mod locksets;
pub mod locmaps;
pub mod mhp;
pub mod naive;
pub mod nest;
pub mod order;
pub mod phases;
pub mod privacy;

use crate::constraints::{Lock, Rho, Site};
use crate::define_id;
use crate::ids::IndexVec;
use crate::scope::Scope;

define_id!(
    /// A function of the analysed program.
    pub struct FnId, "fn";
);
define_id!(
    /// A memory access (a read or write of a location) in the analysed program.
    pub struct AccessId, "acc";
);
define_id!(
    /// An object that may hold locks: a variable or an allocation site.
    pub struct ObjectId, "obj";
);
define_id!(
    /// The threads started by one `pthread_create` (or one create loop) whose ids the front end
    /// can follow to a `pthread_join`.
    pub struct ThreadHandle, "th";
);

define_id!(
    /// A lock call of the analysed program: an acquisition the deadlock check may report.
    pub struct AcqId, "acq";
);

/// How a lock is held. The paper's locks are exclusive; an rwlock's read side is shared: other
/// readers may hold it at the same time.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Exclusive,
    Shared,
}

/// One step of a function's execution that matters for locking (the paper's state kinds).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The lock is held from here on; the lock call that takes it, when it is one the lock
    /// order knows ([`ThreadProgram::acquisitions`]). A hold without one (the shared hold of a
    /// `pthread_once` control after the call) protects accesses but orders no locks.
    Acquire(Lock, Mode, Option<AcqId>),
    Release(Lock),
    Access(AccessId),
    /// A call of `callee`, instantiated at `site` (a split of the lock state). With a handle,
    /// the callee is a create wrapper: the threads that its forks with a handle of
    /// [`ThreadProgram::wrapped`] start during this call are this run's threads of `handle`, which
    /// its joins end. The front end gives a call a handle only when the wrapper's own forks of
    /// such a handle start at most one thread per call, whose id is the one the caller names, or
    /// when the caller's joins of it end every thread they start
    /// ([`ThreadProgram::wrapped_loops`]).
    Call {
        site: Site,
        callee: FnId,
        handle: Option<ThreadHandle>,
    },
    /// A new thread running `callee`, instantiated at `site`; `handle` names it for joins.
    Fork {
        site: Site,
        callee: FnId,
        handle: Option<ThreadHandle>,
    },
    /// Every thread started in this function by forks with this handle has terminated (a
    /// must-join, see [`mhp`]).
    Join(ThreadHandle),
    /// An object is created here (a `malloc` call, or a local variable at function entry).
    Alloc(ObjectId),
    /// A wait on the program's phase barrier ([`ThreadProgram::barrier_count`], [`phases`]):
    /// what the thread does after it is ordered with what the other waiting threads did
    /// before their own wait of the same trip.
    BarrierWait,
    /// Hand-shake `k`'s signal ([`phases`]): its one thread sets the flag the
    /// waiters wait for. What the thread's function does where this cannot have happened yet
    /// comes before what a waiter does after its wait.
    HandshakeSet(u32),
    /// Hand-shake `k`'s waiter saw the flag set: what its function does where this has
    /// certainly happened comes after what the signalling thread did before its signal.
    HandshakeWait(u32),
}

#[derive(Clone, Debug, Default)]
pub struct EventBlock {
    pub events: Vec<Event>,
    pub succs: Vec<u32>,
    /// Whether control returns to the caller from the end of this block.
    pub returns: bool,
    /// The block returns on a lock call's failure (`if (lock(&m) != 0) return -1;`), where the
    /// lock sets, which do not follow a lock call's result, hold the lock: no lock leak there
    /// ([`leaks`]).
    pub lock_failure: bool,
    /// The block branches on a variable that keeps its value from its first test on.
    pub stable_test: Option<StableTest>,
}

/// A branch on a variable of the function that no statement after a test of it assigns
/// (`if (use_lock) …`): each path takes the same side at every test of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StableTest {
    /// The variable, numbered within its function.
    pub var: u32,
    /// The successor taken when the variable is not zero; the other is taken when it is.
    pub when_set: u32,
}

#[derive(Clone, Debug)]
pub struct FnBody {
    pub scope: Scope,
    /// Entry is block 0; empty for functions without a body.
    pub blocks: Vec<EventBlock>,
}

impl FnBody {
    /// Each block's predecessors in the function's control flow.
    pub fn predecessors(&self) -> Vec<Vec<u32>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for (b, block) in self.blocks.iter().enumerate() {
            for &s in &block.succs {
                preds[s as usize].push(b as u32);
            }
        }
        preds
    }
}

#[derive(Copy, Clone, Debug)]
pub struct AccessInfo {
    pub rho: Rho,
    pub write: bool,
    /// The opened lock ℓ′ of the existential package the access lies in (paper §3.3, figure 10
    /// \[Unpack\]), held for this access only: the access is correlated with it besides the
    /// locks its function holds. It is never part of the lock state of what follows.
    pub opened: Option<(Lock, Mode)>,
    /// The access names a thread-local variable (`_Thread_local`, `__thread`): it touches the
    /// running thread's own copy. Such accesses start as *internal* facts ([`Loc::internal`]):
    /// each thread's copy is its own, as each run of a callee makes its own copy of its
    /// locals, so two of them never meet — but an access through a pointer to a copy (handed
    /// to another thread) is not one, and meets them.
    ///
    /// [`Loc::internal`]: locmaps::Loc::internal
    pub own_copy: bool,
}

/// A lock call, for the deadlock check ([`deadlock`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AcquireInfo {
    /// The call waits until the lock is free (`pthread_mutex_lock`, the re-acquisition of
    /// `pthread_cond_wait`). A try-lock's success never waits: it orders the locks acquired
    /// after it, but no lock held before it waits for it.
    pub waits: bool,
    /// The call takes again a lock it released itself (a condition wait, which must be called
    /// holding it): no taking of its own for the lock-leak check ([`leaks`]).
    pub retakes: bool,
}

/// An object that holds lock labels.
#[derive(Clone, Debug)]
pub struct ObjectInfo {
    /// The locks inside the object (a mutex variable, mutex fields of a struct).
    pub locks: Vec<Lock>,
    /// An array: its elements are many objects with one label.
    pub array: bool,
    /// The locks of `locks` that lie inside an array at some field path (`c.m[i]` for a
    /// `struct c { pthread_mutex_t m[10]; }`): each stands for several run-time locks.
    pub array_locks: Vec<Lock>,
}

/// What the C front end hands to the thread analysis.
#[derive(Clone, Debug, Default)]
pub struct ThreadProgram {
    pub funcs: IndexVec<FnId, FnBody>,
    /// The program's entry; its scope is the root.
    pub main: Option<FnId>,
    pub accesses: IndexVec<AccessId, AccessInfo>,
    /// The lock calls, for the deadlock check.
    pub acquisitions: IndexVec<AcqId, AcquireInfo>,
    /// Lock labels initialised with a mutex attribute object (`pthread_mutex_init(&m, &attr)`):
    /// they may be recursive mutexes, which the thread that holds them may lock again.
    pub attributed_locks: Vec<Lock>,
    /// The locks of the memory of code locksmith cannot see (its external objects, one per
    /// type): unknown code may hand out a pointer to any lock, so the deadlock check takes each
    /// for any lock, as it does a lock that names no lock the program made.
    pub external_locks: Vec<Lock>,
    pub objects: IndexVec<ObjectId, ObjectInfo>,
    /// Location labels to check for consistent correlation: variables, allocation sites and the
    /// fields of their contents.
    pub checked: Vec<Rho>,
    /// Location labels of the library model's thread-local state (`errno`, `inet_ntoa`'s
    /// buffer): each thread's own, and the model hands a pointer to it only to the thread that
    /// asks for it, so never shared. (A program's own thread-locals are checked: their
    /// accesses by name are `AccessInfo::own_copy`.)
    pub thread_local: Vec<Rho>,
    /// Handles whose thread id is a global, joined possibly in other functions than the create:
    /// they end threads only if the function that forks them runs at most once.
    pub global_handles: Vec<ThreadHandle>,
    /// The handles of the creates inside create wrappers, whose thread id is the wrapper's
    /// parameter: their threads are named by the handle of the wrapper's call
    /// ([`Event::Call`]). No join names them.
    pub wrapped: Vec<ThreadHandle>,
    /// The handles of [`ThreadProgram::wrapped`] whose fork may run several times in one call of
    /// its wrapper (a thread pool's create loop) and whose threads the call's handle still names
    /// all of: the joins of that handle end every one ([`mhp`]).
    pub wrapped_loops: Vec<ThreadHandle>,
    /// The calls of a pool join wrapper that join a handle, sorted: `(site, parameter handle,
    /// joined handle)`. Inside the wrapper, its parameter handle is joined where its join
    /// loop exits; through this call, what the wrapper did after that is after the joined
    /// handle's threads ([`contexts`], [`mhp::Mhp::ended_by`]).
    pub param_joins: Vec<(Site, ThreadHandle, ThreadHandle)>,
    /// The call sites that are one of several targets of one call through a pointer, each with
    /// the first site of that call (which names the call), sorted. Their calls are consecutive
    /// events, but only one of them happens: each starts from the state before the first, and
    /// what follows sees what any one of them may have done ([`locksets`]).
    pub alternatives: Vec<(Site, Site)>,
    /// Must-joins that hold only while a location (a join loop's bound) is not written: see
    /// [`bounds`].
    pub bound_conditions: Vec<BoundCondition>,
    /// The locks that a thread already holding them may lock again without blocking and
    /// without holding them once more: read-write locks (a second write lock fails with
    /// `EDEADLK`), error-checking mutexes, locks of unknown kind. Every other lock counts its
    /// holds, as a recursive mutex does, or blocks forever when locked again (a normal mutex,
    /// a spin lock), which ends the path; see [`locksets`].
    pub relock_fails: Vec<Lock>,
    /// `(call site, fork site)` pairs, sorted: the call (of a create wrapper, which passes its
    /// function-pointer parameter to `pthread_create`) never starts a thread at the fork site,
    /// because the call passes another function for that parameter. Facts of such a fork's
    /// threads do not cross the call (`facts`), so `spawn(&t, producer, q); spawn(&u,
    /// consumer, q)` does not start two producers.
    pub untaken_forks: Vec<(Site, Site)>,
    /// The count of the one barrier whose waits are [`Event::BarrierWait`]s, if the front end
    /// found one that qualifies ([`phases`]).
    pub barrier_count: Option<u64>,
    /// `(fork site, n)`, sorted: one run of the forking function starts at most `n` threads at
    /// the site. A fork site that is not listed may start any number.
    pub fork_trips: Vec<(Site, u64)>,
    /// The fork sites that install a signal handler (`signal`, `sigaction`), sorted: the thread
    /// is the handler, which interrupts whatever thread takes the signal.
    pub signal_sites: Vec<Site>,
    /// The locations of `volatile sig_atomic_t` objects, sorted: a handler's accesses to them
    /// do not race with those of the code it interrupts (C11 7.14.1.1 §5), [`check`].
    pub signal_atomic: Vec<Rho>,
    /// `(handler's fork site, mask lock)`, sorted: the lock held wherever the handler's signal
    /// is blocked. It protects no access from any other, only one of `main` where no other
    /// thread runs from that handler ([`check`]): a blocked signal is not delivered to the
    /// thread that blocks it (POSIX XSH 2.4.1), and no other thread exists to take it.
    pub masked_handlers: Vec<(Site, Lock)>,
    /// The handles of each *presumed* join: a wait that would join their threads were the
    /// synchronisation it relies on kept correctly (a counter of running threads read without
    /// its lock, counted down by a thread that joins them). Their [`Event::Join`]s are set
    /// aside: the check never trusts them. Each is then checked once more as if it held
    /// ([`ThreadSolution::presumed`]), to tell which races are its consequences.
    pub presumed_joins: Vec<Vec<ThreadHandle>>,
    /// The global pointers filled lazily, one object per epoch ([`Epochs`]).
    pub epochs: Vec<Epochs>,
    /// The objects whose one lock stands for one lock only if each of some accesses is made
    /// where no other thread that may reach them runs ([`Steady`], [`epochs::unsteady`]);
    /// otherwise it is not linear.
    pub steady: Vec<Steady>,
    /// The lists of every thread started into them (the front end's registries): the handles
    /// of their creates, whose joins end all their threads wherever they happen, as a global
    /// handle's do, however many overlap; and the functions that write or test the list, which
    /// must all run in no thread for that to hold ([`mhp::Mhp::new`]).
    pub registries: Vec<(Vec<ThreadHandle>, Vec<FnId>)>,
    /// Where a lazily filled guard is seen null: the joins of the threads started where it is
    /// set ([`GuardJoin`]), kept only where [`epochs::settle_guard_joins`] finds they hold.
    pub guard_joins: Vec<GuardJoin>,
}

/// The front end's joins of a guard's null sides: each `(alias, handle)` is joined there as the
/// alias, a handle no fork has (a join of nothing), which stands for the handle. Where the
/// guard is null, no thread of the handle runs, when the functions that test it
/// (`testers`), those of the handles' creates (`forkers`) and the creations of its epoch run
/// in no thread, and no thread of the handle (or started under one) runs at any of its
/// resets.
#[derive(Clone, Debug, Default)]
pub struct GuardJoin {
    /// The guard's epochs ([`ThreadProgram::epochs`]).
    pub epoch: usize,
    pub aliases: Vec<(ThreadHandle, ThreadHandle)>,
    pub testers: Vec<FnId>,
    pub forkers: Vec<FnId>,
}

impl ThreadProgram {
    /// The call through a pointer that `site` is one target of ([`ThreadProgram::alternatives`]).
    pub fn alternative_of(&self, site: Site) -> Option<Site> {
        alternative_in(&self.alternatives, site)
    }
}

/// The call through a pointer that `site` is one target of, in sorted `alternatives`
/// ([`ThreadProgram::alternatives`]).
pub(crate) fn alternative_in(alternatives: &[(Site, Site)], site: Site) -> Option<Site> {
    let k = alternatives.binary_search_by_key(&site, |&(s, _)| s).ok()?;
    Some(alternatives[k].1)
}

/// A global pointer the program fills lazily (`if (g == NULL) g = make();`) and resets to null
/// (the front end's *guard*, `c_frontend::analyses::singletons`), with what runs at most once
/// per *epoch* of it, the time between two resets: the instantiation sites and objects of the
/// calls that create it and its companions. The front end checked the creations' guards and
/// that the pointers are never copied; the thread analysis checks that `creators` run in no
/// thread and that no other thread that may run one of `users` may be running at any of
/// `resets` ([`linearity::decide`]). Then the objects a creation makes are one at a time.
#[derive(Clone, Debug, Default)]
pub struct Epochs {
    pub creators: Vec<FnId>,
    /// The writes of null into the guard.
    pub resets: Vec<AccessId>,
    /// The instantiation sites of the creations' calls.
    pub sites: Vec<Site>,
    /// The objects allocated by the creations' calls themselves (a library allocation).
    pub objects: Vec<ObjectId>,
    /// The functions that name the guard or its companions: a thread that runs none of them
    /// never reaches their objects, and may run across a reset.
    pub users: Vec<FnId>,
}

/// An object whose lock is one lock only while the stores of [`Steady::stores`] are each made
/// where no thread that may run one of [`Steady::users`] runs beside: the front end's lock
/// behind an owning member, whose stores of a block into the member are these accesses.
#[derive(Clone, Debug)]
pub struct Steady {
    pub object: ObjectId,
    pub stores: Vec<AccessId>,
    /// The functions that name the member: a thread that runs none of them never reaches its
    /// block.
    pub users: Vec<FnId>,
}

/// At most how many presumed joins a program has ([`ThreadProgram::presumed_joins`]): each
/// costs a second run of the sharing and check phases, so the front end records no more.
pub const MAX_PRESUMED_JOINS: usize = 4;

/// The join loop of `handle` in `func` ends its threads only if no write may change `bound`
/// while the blocks of `region` run or while any thread runs. `None` when the front end has
/// no label for the bound: the join is then never trusted.
#[derive(Clone, Debug)]
pub struct BoundCondition {
    pub handle: ThreadHandle,
    pub func: FnId,
    pub bound: Option<Rho>,
    pub region: Vec<u32>,
}

impl Default for FnBody {
    fn default() -> Self {
        FnBody {
            scope: Scope::ROOT,
            blocks: Vec::new(),
        }
    }
}

pub mod structure;
pub mod unheld;
pub mod unmoved;
pub mod unordered;
pub mod widen;

use crate::cfl;
use crate::correlation::Index;
use crate::locks;
use crate::stats::{Phase, Stats};
use crate::technique::{Technique, Techniques};
use rustc_hash::FxHashSet;

/// The result of the thread analysis.
pub struct ThreadSolution {
    pub warnings: Vec<check::RaceWarning>,
    /// The potential deadlocks (empty when the deadlock check is not run).
    pub deadlocks: Vec<deadlock::DeadlockWarning>,
    /// The functions whose lock order had more cycles than the deadlock check searches, with
    /// the number of locks from which its cycles were not all searched (a deadlock among them
    /// may be missed).
    pub cycles_cut: Vec<deadlock::CyclesCut>,
    /// The lock leaks (empty when the deadlock check is not run: they are found on its lock
    /// sets).
    pub lock_leaks: Vec<leaks::LockLeak>,
    pub lock_rep: IndexVec<Lock, Lock>,
    /// `(generic, instance)` class pairs: `instance` is the image of `generic` at some site (a
    /// lock of a callee as its caller sees it), for naming locks in reports.
    pub lock_images: Vec<(Lock, Lock)>,
    pub structure: structure::Structure,
    pub mhp: mhp::Mhp,
    pub homes: privacy::Homes,
    /// Every correlation fact, with the sets and nests its contexts name.
    pub facts: facts::Propagated,
    pub sets: locksets::LockSets,
    /// Where the run's budget ran out ([`crate::budget`]), when the race check stopped before
    /// its last location (its warnings are those found until then) or the deadlock check before
    /// its end (no deadlock is reported).
    pub stopped: Option<crate::budget::Stop>,
    /// For each of [`ThreadProgram::presumed_joins`]: the indices into `warnings` of the races
    /// that a check trusting that join (and the same others as the first check) does not find,
    /// sorted; `None` when that second check ran out of budget.
    pub presumed: Vec<Option<Vec<usize>>>,
}

/// The thread analysis's phases as its users see them (`--timings`, the progress indicator,
/// where a run stopped): label resolution (figure 8a: matched flow, lock unification,
/// linearity), relative locksets (§3.1), sharing (§3.2: which threads may run where, Down-Fork,
/// correlations carried to the roots), the consistent-correlation check, and the lock order
/// with its cycles (potential deadlocks).
pub const PHASE_RESOLVE: Phase = Phase::named("label resolution");
pub const PHASE_LOCKSETS: Phase = Phase::named("locksets");
pub const PHASE_SHARING: Phase = Phase::named("sharing");
pub const PHASE_CHECK: Phase = Phase::named("check");
pub const PHASE_DEADLOCKS: Phase = Phase::named("deadlocks");

/// Whether and where the deadlock check runs ([`solve_with`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeadlockCheck {
    /// Not at all (`--no-deadlocks`).
    Skip,
    /// On a thread of its own, beside the facts and the race check.
    Beside,
    /// After the race check, on the same thread (`--jobs 1`).
    After,
}

/// Runs the whole thread analysis on the constraints and event graphs of a C program, with the
/// deadlock check, recording no statistics.
pub fn solve(
    c: &crate::constraints::Constraints,
    p: &ThreadProgram,
    techniques: Techniques,
) -> ThreadSolution {
    solve_with(c, p, techniques, DeadlockCheck::Beside, &Stats::off())
}

/// [`solve`], with the deadlock check as `deadlocks` says, recording into `stats`.
pub fn solve_with(
    c: &crate::constraints::Constraints,
    p: &ThreadProgram,
    techniques: Techniques,
    deadlocks: DeadlockCheck,
    stats: &Stats,
) -> ThreadSolution {
    let mut scopes = c.scopes.clone();
    scopes.freeze();
    // Label resolution (figure 8a) and what depends only on it.
    let (flow, comps, index, mut lock_table, s) =
        stats.phase(PHASE_RESOLVE, || resolve(c, &scopes, p, stats));
    // Sharing (§3.2): which threads run where, Down-Fork, correlations carried to the roots.
    // Which threads run where comes first: linearity asks it of the epochs' resets.
    let mut sharing = stats.clock(PHASE_SHARING);
    let (mhp, unwritten, settled) = sharing.run(|| {
        let unwritten = stats.time("solve: bounds", || bounds::failed_conditions(c, p, &s));
        // The presumed joins are never trusted by the check itself.
        let untrusted = with_presumed(&unwritten, p, None);
        let joins = techniques.has(Technique::Joins);
        let mhp = stats.time("solve: mhp", || mhp::Mhp::new(p, &s, joins, &untrusted));
        // The guard joins that hold, decided on the threads without them.
        let settled = joins
            .then(|| {
                stats.time("solve: guard joins", || {
                    epochs::settle_guard_joins(p, &s, &mhp)
                })
            })
            .flatten();
        match settled {
            Some(q) => {
                let mhp = stats.time("solve: mhp", || mhp::Mhp::new(&q, &s, joins, &untrusted));
                (mhp, unwritten, Some(q))
            }
            None => (mhp, unwritten, None),
        }
    });
    let p = settled.as_ref().unwrap_or(p);
    let (linearity, mut ls) = stats.phase(PHASE_LOCKSETS, || {
        protection(c, &scopes, p, &s, &mhp, &mut lock_table, techniques, stats)
    });
    let (homes, phases) = sharing.run(|| {
        let homes = stats.time("solve: privacy", || {
            if techniques.has(Technique::DownFork) {
                privacy::decide(c, &scopes, p, &flow)
            } else {
                privacy::Homes::none(c)
            }
        });
        let phases = stats.time("solve: barrier phases", || phases::phases(p, &s));
        (homes, phases)
    });
    // The deadlock check needs only what is known by now, and nothing after it needs the
    // deadlock check: it runs on a thread of its own beside the facts and the race check, on
    // a copy of the lock table (which only path compression changes from here on), unless
    // asked to run after them.
    let (propagated, warnings, found, stopped, presumed) = std::thread::scope(|scope| {
        let order_inputs = order::OrderInputs {
            constraints: c,
            scopes: &scopes,
            program: p,
            structure: &s,
            linearity: &linearity,
            mhp: &mhp,
            stats,
        };
        let beside = (deadlocks == DeadlockCheck::Beside).then(|| {
            let mut order_table = lock_table.clone();
            let spent = crate::budget::active();
            std::thread::Builder::new()
                .name("locksmith-deadlocks".into())
                .stack_size(1 << 28)
                .spawn_scoped(scope, move || {
                    crate::budget::continue_within(spent, || {
                        stats.phase_beside(PHASE_DEADLOCKS, || {
                            deadlocks_of(order_inputs, &mut order_table, techniques)
                        })
                    })
                })
        });
        let inputs = facts::FactInputs {
            constraints: c,
            scopes: &scopes,
            program: p,
            structure: &s,
            comps: &comps,
            index: &index,
            linearity: &linearity,
            mhp: &mhp,
            homes: &homes,
            phases: &phases,
            stats,
        };
        let propagated = sharing.run(|| {
            stats.time("solve: facts", || {
                facts::propagate(inputs, &mut lock_table, &mut ls)
            })
        });
        sharing.finish();
        let (warnings, mut stopped) = stats.phase(PHASE_CHECK, || {
            check::races(check::RaceInputs {
                program: p,
                mhp: &mhp,
                homes: &homes,
                sets: &ls.sets,
                facts: &propagated,
                comps: &comps,
                techniques,
                stats,
            })
        });
        let presumed = stats.time("solve: presumed joins", || {
            PresumedCheck::each(inputs, &unwritten, techniques)
                .map(|check| check.vanished(&warnings, &mut lock_table, &mut ls))
                .collect::<Vec<_>>()
        });
        let found = match beside {
            Some(Ok(handle)) => joined_deadlocks(handle.join(), stats, &mut stopped),
            None if deadlocks == DeadlockCheck::Skip => Deadlocks::default(),
            // Asked for after the race check, or no thread could be started: it runs here.
            Some(Err(_)) | None => stats.phase(PHASE_DEADLOCKS, || {
                deadlocks_of(order_inputs, &mut lock_table.clone(), techniques)
            }),
        };
        (propagated, warnings, found, stopped, presumed)
    });
    let (lock_rep, lock_images) = lock_naming(&mut lock_table);
    ThreadSolution {
        warnings,
        deadlocks: found.warnings,
        cycles_cut: found.cycles_cut,
        lock_leaks: found.lock_leaks,
        lock_rep,
        lock_images,
        structure: s,
        mhp,
        homes,
        facts: propagated,
        sets: ls.sets,
        stopped,
        presumed,
    }
}

/// Label resolution (figure 8a) and what depends only on it: matched flow and its components,
/// the correlation index, lock unification and the program's structure.
fn resolve(
    c: &crate::constraints::Constraints,
    scopes: &crate::scope::ScopeTree,
    p: &ThreadProgram,
    stats: &Stats,
) -> (
    cfl::FlowGraph,
    cfl::Components,
    Index,
    locks::LockTable,
    structure::Structure,
) {
    let flow = stats.time("solve: matched flow (cfl)", || cfl::close(c, scopes, stats));
    let comps = stats.time("solve: flow components", || flow.components());
    let index = stats.time("solve: constraint index", || Index::new(c));
    let lock_table = stats.time("solve: lock unification", || locks::unify_all(c, scopes));
    let s = stats.time("solve: structure", || structure::Structure::new(p));
    (flow, comps, index, lock_table, s)
}

/// Which locks count as held (linearity, §2.2, asking `mhp` which lazily created locks are one
/// at a time) and the locksets of protection they make.
#[allow(clippy::too_many_arguments)]
fn protection(
    c: &crate::constraints::Constraints,
    scopes: &crate::scope::ScopeTree,
    p: &ThreadProgram,
    s: &structure::Structure,
    mhp: &mhp::Mhp,
    lock_table: &mut locks::LockTable,
    techniques: Techniques,
    stats: &Stats,
) -> (linearity::Linearity, locksets::Locksets) {
    let linearity = stats.time("solve: linearity", || {
        if techniques.has(Technique::Linearity) {
            linearity::decide(c, scopes, p, s, mhp, lock_table)
        } else {
            linearity::Linearity::all_linear(linearity::Grounding::new(p, lock_table))
        }
    });
    let ls = stats.time("solve: locksets", || {
        locksets::compute(
            c,
            scopes,
            lock_table,
            &linearity,
            p,
            s,
            locksets::Holds::Protection,
        )
    });
    (linearity, ls)
}

/// The handles no join of the check trusts: those whose bound condition failed (`unwritten`)
/// and those of every presumed join but `trusted`.
fn with_presumed(
    unwritten: &FxHashSet<ThreadHandle>,
    p: &ThreadProgram,
    trusted: Option<usize>,
) -> FxHashSet<ThreadHandle> {
    let mut out = unwritten.clone();
    for (k, handles) in p.presumed_joins.iter().enumerate() {
        if Some(k) != trusted {
            out.extend(handles.iter().copied());
        }
    }
    out
}

/// A second check of the program that trusts one presumed join
/// ([`ThreadProgram::presumed_joins`]): which threads run where, the facts carried to the
/// roots, and the race check, again; label resolution, locksets and privacy are the first
/// check's.
struct PresumedCheck<'a> {
    inputs: facts::FactInputs<'a>,
    unwritten: &'a FxHashSet<ThreadHandle>,
    trusted: usize,
    techniques: Techniques,
}

impl<'a> PresumedCheck<'a> {
    /// The second check of each presumed join of the program, in order.
    fn each(
        inputs: facts::FactInputs<'a>,
        unwritten: &'a FxHashSet<ThreadHandle>,
        techniques: Techniques,
    ) -> impl Iterator<Item = PresumedCheck<'a>> {
        (0..inputs.program.presumed_joins.len()).map(move |trusted| PresumedCheck {
            inputs,
            unwritten,
            trusted,
            techniques,
        })
    }

    /// The indices of `first`'s warnings whose location this check finds race-free; `None`
    /// when the run's budget ran out in it. The lock table and the interned lock sets are the
    /// first check's, which this one only extends (sets are interned append-only, and only
    /// path compression changes the table), so the first check's ids keep their meaning.
    fn vanished(
        &self,
        first: &[check::RaceWarning],
        lock_table: &mut locks::LockTable,
        ls: &mut locksets::Locksets,
    ) -> Option<Vec<usize>> {
        let p = self.inputs.program;
        let untrusted = with_presumed(self.unwritten, p, Some(self.trusted));
        let joins = self.techniques.has(Technique::Joins);
        crate::budget::caught(|| {
            let mhp = mhp::Mhp::new(p, self.inputs.structure, joins, &untrusted);
            let inputs = facts::FactInputs {
                mhp: &mhp,
                ..self.inputs
            };
            let propagated = facts::propagate(inputs, lock_table, ls);
            let (warnings, stopped) = check::races(check::RaceInputs {
                program: p,
                mhp: &mhp,
                homes: self.inputs.homes,
                sets: &ls.sets,
                facts: &propagated,
                comps: self.inputs.comps,
                techniques: self.techniques,
                stats: self.inputs.stats,
            });
            let still: FxHashSet<(Rho, FnId)> = warnings.iter().map(|w| (w.rho, w.home)).collect();
            stopped.is_none().then(|| {
                (0..first.len())
                    .filter(|&i| !still.contains(&(first[i].rho, first[i].home)))
                    .collect()
            })
        })
        .ok()
        .flatten()
    }
}

/// The deadlock check's result from its own thread: none when the run's budget ran out in it
/// (`stopped` says so then, unless the race check stopped first); a panic in it goes on, named
/// by its phase.
fn joined_deadlocks(
    joined: std::thread::Result<Deadlocks>,
    stats: &Stats,
    stopped: &mut Option<crate::budget::Stop>,
) -> Deadlocks {
    joined.unwrap_or_else(|panic| match crate::budget::stop_of(panic) {
        // The races are all checked; the deadlocks are not.
        Ok(stop) => {
            let phase = Some(PHASE_DEADLOCKS);
            *stopped = stopped.or(Some(crate::budget::Stop { phase, ..stop }));
            Deadlocks::default()
        }
        Err(panic) => {
            stats.mark_phase(PHASE_DEADLOCKS);
            std::panic::resume_unwind(panic)
        }
    })
}

/// Each lock's class representative, and the `(generic, instance)` class pairs of images, for
/// naming locks in reports ([`ThreadSolution::lock_rep`], [`ThreadSolution::lock_images`]).
fn lock_naming(lock_table: &mut locks::LockTable) -> (IndexVec<Lock, Lock>, Vec<(Lock, Lock)>) {
    let lock_rep: IndexVec<Lock, Lock> = (0..lock_table.len())
        .map(|i| lock_table.find(Lock(i as u32)))
        .collect();
    let mut lock_images = Vec::new();
    for (l, &rep) in lock_rep.iter_enumerated() {
        if l == rep {
            for image in lock_table.images_of(rep) {
                lock_images.push((rep, image));
            }
        }
    }
    lock_images.sort();
    lock_images.dedup();
    (lock_rep, lock_images)
}

/// The deadlock check: the lock order ([`order`]), then its cycles ([`deadlock`]); with the
/// lock leaks found on the order's lock sets ([`leaks`]).
fn deadlocks_of(
    inputs: order::OrderInputs<'_>,
    lock_table: &mut locks::LockTable,
    techniques: Techniques,
) -> Deadlocks {
    let stats = inputs.stats;
    let mut order = stats.time("solve: lock order", || order::propagate(inputs, lock_table));
    let lock_leaks = std::mem::take(&mut order.leaks);
    let (warnings, cycles_cut) = stats.time("solve: deadlocks", || {
        deadlock::find(
            deadlock::DeadlockInputs {
                constraints: inputs.constraints,
                scopes: inputs.scopes,
                program: inputs.program,
                structure: inputs.structure,
                mhp: inputs.mhp,
                linearity: inputs.linearity,
                order: &order,
                techniques,
                stats,
            },
            lock_table,
        )
    });
    Deadlocks {
        warnings,
        cycles_cut,
        lock_leaks,
    }
}

/// What the deadlock check finds ([`deadlocks_of`]).
#[derive(Default)]
struct Deadlocks {
    warnings: Vec<deadlock::DeadlockWarning>,
    cycles_cut: Vec<deadlock::CyclesCut>,
    lock_leaks: Vec<leaks::LockLeak>,
}
