//! Matching `pthread_join` with `pthread_create` (an extension beyond the paper; see
//! `solver::threads::mhp`).
//!
//! A join ends threads only when it certainly joins *every* thread a create started; otherwise a
//! race with a thread that is still running would be hidden. Two idioms are matched, within one
//! function unless noted:
//!
//! - **Single**: `pthread_create(&t, …)` outside any loop, and `pthread_join(t, …)` on the same
//!   variable (or the same field path of it). The join ends the thread right after the call. A
//!   global `t` may be joined in another function (a `stop` function for a `start` function);
//!   the thread analysis then also requires the create's function to run at most once.
//! - **Loops**: `for (i = A; i < B; i++) pthread_create(&th[i], …)` and a join loop
//!   `for (j = A; j < B; j++) pthread_join(th[j], …)` with the same start, comparison and bound
//!   (an integer constant, or a local assigned once; or a global or an integer member of a global
//!   struct, `cfg.nworkers`, whose address may be anywhere: such a match holds only under a
//!   [`BoundCheck`] that the thread analysis decides with label flow, since only it sees writes
//!   through pointers). The join loop must join on every iteration
//!   (the join dominates the increment) and leave only through its condition; the threads are
//!   ended where it exits. The ids may be a member of each element of an array of structs
//!   (`pthread_create(&w[i].tid, …, &w[i])`): an element handed to its thread may be written
//!   through, so nothing in the program may write, create into or take the address of that
//!   member through a pointer, or write such a struct whole. Both loops may lie in another
//!   loop (rounds of workers) when every
//!   cycle through the create loop other than its own passes the join loop's exit: each
//!   round's threads are joined before the next round creates into the same ids.
//!
//!   The thread ids may also be the elements of a heap block, `pthread_t *w = calloc(n, …)`
//!   with `pthread_create(&w[i], …)` (or `w + i`) and `pthread_join(w[j], …)` (or `*(w + j)`).
//!   `w` must then be a local of the function, its address never taken, assigned exactly once,
//!   outside any cycle, with the result of `malloc` or `calloc`; and its value must never leave
//!   the function or be used to write the block: it may appear (through casts and arithmetic)
//!   only in branch conditions, in reads of the elements, as `free(w)`, and as the thread id of
//!   that one create (no other argument, assignment source, returned value, or destination of
//!   an assignment). The block is then reachable only through `w`, and only the create writes
//!   it. `w` may also be a global (`static pthread_t *workers;`, allocated by `main` once the
//!   number of threads is known, [`heap::trusted_global_heaps`]): assigned a fresh block exactly
//!   once in the program, its address never taken, and no function letting its value go or
//!   writing through it but the create (any may read the elements); its handles are then
//!   global ones ([`JoinPlan::global`]). The loops must also start at a non-negative index (the IR does not keep whether a
//!   pointer is added to or subtracted from, so `w - i` is only excluded as undefined behaviour).
//!   The single idiom is not matched through a pointer: a constant index such as `w[1]` is
//!   dropped by the lowering, so `&w[1]` and `w[0]` look the same.
//!
//! A single create and its join may each lie in a block entered only by a test of the same
//! unchanged condition (`if (parallel) pthread_create(…); … if (parallel) pthread_join(…);`):
//! where the second test fails no thread was started, and the thread is ended where its two
//! ways meet ([`guarded`]).
//!
//! A third idiom joins without `pthread_join`: a **counter join** ([`counters`]), where `main`
//! waits under a mutex for a counter of running workers that each counts down as its last act.
//! A fourth orders without ending a thread: a **hand-shake** ([`handshakes`]), where a waiter
//! sees a flag under a mutex that one thread set once it had done its part, or returns from a
//! `sem_wait` of a semaphore that only that thread posts ([`posts`]). A fifth protects rather
//! than orders: a **turn** ([`turns`]), a value under a mutex that a thread waits for and then
//! holds, as a lock of its own, until it stores the value again.
//!
//! A call of a create or join wrapper, a user function that calls `pthread_create` or
//! `pthread_join` for its caller with a thread id the caller hands over (`spawn(&t, …)`,
//! `wait_for(t)`), is matched as a create or join itself ([`wrappers`]). So is a call of a
//! thread library's handle wrappers (`h = launch(…)` returning a fresh object whose id field its
//! one create wrote, `join(h)` joining that field): the two match in one function where the same
//! assignment of `h` reaches the join, for a local `h` or a global place only `NULL` is stored
//! in elsewhere (then only if the function runs in no thread and is not recursive,
//! [`JoinPlan::global`]). A thread pool's wrappers ([`pools`]) are handle wrappers whose
//! thread id is a whole block of them: `p = pool_create(…)` starts every worker of its create
//! loop, and `pool_destroy(p)` joins every one. A *registry* ([`registry`]) is a list every
//! thread is pushed onto right after its create and unlinked from only once joined (a thread
//! library's `join_all()`): where the list is seen empty, all its threads are joined.
//!
//! In both, the thread-id variable must be written only by that one create: no other create,
//! assignment, or address taken anywhere in the program may change it, and the create loop's
//! counter must change only in its increment. An id inside a union is never trusted (members
//! overlap). When the address of a struct enclosing the id is taken (`&g_rep` handed to the
//! thread), no assignment anywhere may write the id's field or such a struct through a pointer,
//! and no library function (`memset`, `memcpy`, one without a model) may receive a pointer to
//! one. A thread-id array that is a global is also subject to the create's function running
//! once ([`JoinPlan::global`]). Anything else is left unmatched, which is sound: the threads
//! simply stay running.
//!
//! Knowingly unsound: array indexes are compared after removing casts, so
//! `th[(unsigned char)i]` over more than 256 threads is matched as `th[i]`.
//!
//! A join loop may contain paths that end the program or the thread (`exit`, `abort`, a call of
//! a `noreturn` function such as `die("…")`, `pthread_exit`: blocks ending in [`Term::Exit`]),
//! as in `if (pthread_join(th[i], NULL) != 0) die("join")`: the code after the loop never runs
//! on such a path, so the loop still joins every thread wherever it is left. `longjmp` is also
//! lowered to `Term::Exit`, and is accepted here although control may resume at its `setjmp`,
//! possibly after the join loop with threads still running: this is one of the places where
//! locksmith is knowingly unsound (`setjmp`/`longjmp` is not modelled).

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyses::calls::Calls;
use crate::ir::ctypes::Type;
use crate::ir::{
    Base, BlockId, Callee, CountedLoop, Func, FuncId, LoopBound, LoopCmp, Lval, Operand, Origin,
    Program, Proj, StmtKind, Term, VarId, VarKind,
};
use crate::model::{Arg, Kind};
use solver::threads::ThreadHandle;

mod arrays;
pub(crate) mod cfg;
mod counters;
mod failed;
mod guarded;
mod handshakes;
mod heap;
mod ids;
mod loops;
mod monotone;
mod objects;
mod pools;
mod posts;
mod presumed;
mod registry;
mod turn_objects;
mod turns;
mod wrappers;

pub use presumed::PresumedJoin;
pub use turns::Turn;

use cfg::*;
use failed::*;
use guarded::*;
use heap::*;
use ids::*;
use loops::*;

/// A statement: function, block, index in the block.
pub type StmtAt = (FuncId, BlockId, usize);

/// Where the thread handles of a program are created and joined.
#[derive(Clone, Debug, Default)]
pub struct JoinPlan {
    /// The `pthread_create` calls whose threads can be followed to a join (ordered, so that a
    /// function's are one range: [`JoinPlan::in_function`]).
    pub create: BTreeMap<StmtAt, ThreadHandle>,
    /// The `pthread_join` calls that end a single thread (ordered, as `create`).
    pub join_after: BTreeMap<StmtAt, ThreadHandle>,
    /// Blocks on entry to which the threads of a create loop have all been joined.
    pub join_at_entry: FxHashMap<(FuncId, BlockId), Vec<ThreadHandle>>,
    /// Handles of threads whose id is in a global: a single id's joins may be in other functions,
    /// and any of them is valid only if the create's function runs at most once. Also the
    /// handles of handle create wrapper calls kept in a global place, valid only if the call's
    /// function runs in no thread and is not recursive.
    pub global: Vec<ThreadHandle>,
    /// The handles of the creates inside create wrappers ([`wrappers`]): the threads they start
    /// during a call of the wrapper that has a handle of its own are the caller's threads of
    /// that handle.
    pub wrapped: Vec<ThreadHandle>,
    /// The handles of `wrapped` whose create is a pool's create loop ([`pools`]): the joins of
    /// the call's handle end all the threads the loop starts.
    pub wrapped_loops: Vec<ThreadHandle>,
    /// Join loops whose bound is a global (or a member of one) the front end cannot prove
    /// unchanged between the loops: each holds only if no write may change the bound while the
    /// threads run, which the thread analysis decides with label flow.
    pub bound_checks: Vec<BoundCheck>,
    /// For each `pthread_create` call of a user function: how many threads one run of the
    /// function may start there, when that is bounded (for barrier phases, `phases` in the
    /// thread analysis). One outside any cycle; the trip count of a counted loop with constant
    /// start and bound whose counter changes only in its increment, when the call lies in that
    /// loop and on no other cycle. Absent: unbounded.
    pub create_trips: FxHashMap<StmtAt, u64>,
    /// The counter of the clean counted loop, on no other cycle, that each create of
    /// [`JoinPlan::create_trips`] in a loop lies in: each run of its function passes the
    /// create once per value of the counter.
    pub create_counters: FxHashMap<StmtAt, VarId>,
    /// The `pthread_create` calls that hand each thread its own element of an array: the
    /// argument is `&a[i]` (possibly converted) for a local array `a` of the function, a global
    /// array, or a local pointer `a` to a block the function allocated, and `i` is the counter
    /// of a counted loop whose counter changes only in its increment; the call lies in that
    /// loop and on no other cycle, and no other create of the program hands over anything
    /// computed from `a` (the whole block, another element). Each run of the loop then gives
    /// every thread a different element; for a global array, only a function that runs once
    /// may count on that, which the unpack analysis checks. By call: the array and the counter
    /// ([`crate::analyses::unpacks`]).
    pub element_handoffs: FxHashMap<StmtAt, (VarId, VarId)>,
    /// The `pthread_join` calls after which the joined thread's element of an element hand-off
    /// is its creator's again: `pthread_join(t[j])` in a counted loop (clean, on no other
    /// cycle) of the function whose hand-off create stored the ids in the local array `t`,
    /// which nothing else names. By call: the handed array, the join loop's counter and the
    /// hand-off's create.
    pub element_joins: FxHashMap<StmtAt, (VarId, VarId, StmtAt)>,
    /// The `pthread_join` calls after which the object a thread was handed is its creator's
    /// again, read through the local array of pointers its creator also stored it in
    /// (`jobs[i] = malloc(…); pthread_create(&t[i], 0, f, jobs[i])`, then `pthread_join(t[j]);
    /// free(jobs[j])`), see [`objects`]. By call: that array, the join loop's counter and the
    /// create.
    pub object_joins: FxHashMap<StmtAt, (VarId, VarId, StmtAt)>,
    /// The `pthread_create` calls that hand each thread the value of the counter of a counted
    /// loop (`pthread_create(&t[i], 0, f, (void *)i)`), the loop clean and the call on no other
    /// cycle: each run of the loop gives every thread a different value. By call: the counter
    /// ([`crate::analyses::unpacks`]).
    pub value_handoffs: FxHashMap<StmtAt, VarId>,
    /// The clean counted loop of each of [`JoinPlan::value_handoffs`]: every value it hands
    /// over passed the loop's test against its bound.
    pub value_loops: FxHashMap<StmtAt, crate::ir::CountedLoop>,
    /// The hand-shakes through a flag under a mutex ([`handshakes`]) and through a semaphore
    /// ([`posts`]), at most `solver::threads::phases::MAX_HANDSHAKES`, numbered by their index.
    pub handshakes: Vec<handshakes::Handshake>,
    /// The turn variables ([`turns`]): where a thread starts a turn, holding the variable's own
    /// lock until it stores the variable again.
    pub turns: Vec<Turn>,
    /// The calls of a pool join wrapper that join a pool's handle (`pool_destroy(p)`, a join
    /// of `p`'s handle after the call), with the wrapper's own *parameter handle* and that
    /// handle: inside the wrapper, the parameter handle is joined on entry to its join loop's
    /// exit ([`JoinPlan::join_at_entry`]), so what the wrapper does after its join loop (`free`
    /// the pool, destroy its mutex) is after the pool's threads at this call.
    pub param_joins: FxHashMap<StmtAt, (ThreadHandle, ThreadHandle)>,
    /// The functions that run at most once ([`crate::analyses::once`]), sorted: the creators
    /// and waiters the counter joins, hand-shakes and pools here, and the hand-offs of
    /// [`crate::analyses::unpacks`], rely on.
    pub run_once: Vec<FuncId>,
    /// The waits on a counter of running threads that would join them were the counter kept
    /// as a counter join keeps it ([`presumed`]): their handles name no join the thread
    /// analysis trusts, only one it presumes in a second check.
    pub presumed: Vec<PresumedJoin>,
    /// The lists of every thread started into them ([`registry`]): the handles of their
    /// creates, whose joins (on entry to where a list is seen empty, in
    /// [`JoinPlan::join_at_entry`]) end all their threads wherever they happen, and the
    /// functions that must run in no thread for that to hold.
    pub registries: Vec<(Vec<ThreadHandle>, Vec<FuncId>)>,
    handles: u32,
}

impl JoinPlan {
    /// A handle no create has yet.
    pub(crate) fn fresh_handle(&mut self) -> ThreadHandle {
        let h = ThreadHandle(self.handles);
        self.handles += 1;
        h
    }
}

impl JoinPlan {
    /// The entries of `calls` (`create` or `join_after`) at statements of `f`, in order.
    pub fn in_function(
        calls: &BTreeMap<StmtAt, ThreadHandle>,
        f: FuncId,
    ) -> impl Iterator<Item = (StmtAt, ThreadHandle)> + '_ {
        calls
            .range((f, BlockId(0), 0)..=(f, BlockId(u32::MAX), usize::MAX))
            .map(|(&at, &h)| (at, h))
    }
}

/// A join loop's condition for ending the threads of `handle`: the global bound of its create
/// and join loops (`nthreads`, `cfg.nworkers`) is written neither by code of `func` that may run
/// between the start of the create loop and the exit of the join loop (`region`), nor by any
/// function called there, nor by any thread.
#[derive(Clone, Debug)]
pub struct BoundCheck {
    pub handle: ThreadHandle,
    pub func: FuncId,
    /// A [`LoopBound::Var`] of a global or a [`LoopBound::GlobalField`].
    pub bound: LoopBound,
    /// The blocks of `func` reachable from the create loop's head without passing the join
    /// loop's exit, in order.
    pub region: Vec<BlockId>,
}

/// The functions that create, join, allocate and free — from the library model, and the user's
/// create and join wrappers ([`wrappers`]) — with the argument that names the thread id of a
/// create (its address) or of a join (its value).
pub(super) struct ThreadCalls {
    creates: FxHashMap<FuncId, Arg>,
    joins: FxHashMap<FuncId, Arg>,
    /// The library's creates (not the wrappers): only their result says whether they failed.
    library_creates: FxHashSet<FuncId>,
    /// The create statement inside each create wrapper (and handle create wrapper).
    wrapped: Vec<StmtAt>,
    /// The handle create wrappers ([`wrappers`]): the field path of the thread id in the object
    /// each returns.
    handle_creates: FxHashMap<FuncId, Vec<(u32, u32)>>,
    /// The handle join wrappers ([`wrappers`]): the handle parameter of each and the field path
    /// of the thread id it joins.
    handle_joins: FxHashMap<FuncId, (Arg, Vec<(u32, u32)>)>,
    /// The value create wrappers ([`wrappers`]): a call's result is the id of its thread.
    value_creates: FxHashSet<FuncId>,
    /// The ids members of the pool wrappers ([`pools`]), each a field path of one member, whose
    /// elements only the pool's create writes.
    pool_ids: FxHashSet<Vec<(u32, u32)>>,
    allocs: FxHashSet<FuncId>,
    frees: FxHashSet<FuncId>,
}

impl ThreadCalls {
    fn new(p: &Program, index: &Calls) -> ThreadCalls {
        let mut calls = ThreadCalls {
            creates: FxHashMap::default(),
            joins: FxHashMap::default(),
            library_creates: FxHashSet::default(),
            wrapped: Vec::new(),
            handle_creates: FxHashMap::default(),
            handle_joins: FxHashMap::default(),
            value_creates: FxHashSet::default(),
            pool_ids: FxHashSet::default(),
            allocs: FxHashSet::default(),
            frees: FxHashSet::default(),
        };
        for f in p.funcs.indices() {
            match p.known_kind(f) {
                Some(Kind::Fork { id: Some(id), .. }) => {
                    calls.creates.insert(f, id);
                }
                Some(Kind::Join { id, .. }) => {
                    calls.joins.insert(f, id);
                }
                Some(Kind::Alloc) => {
                    calls.allocs.insert(f);
                }
                Some(Kind::Free { .. }) => {
                    calls.frees.insert(f);
                }
                _ => {}
            }
        }
        calls.library_creates = calls.creates.keys().copied().collect();
        let found = wrappers::find(p, index, &calls.creates, &calls.joins);
        for (f, (k, at)) in found.creates {
            calls.creates.insert(f, k);
            calls.wrapped.push(at);
        }
        for (f, (fields, at)) in found.handle_creates {
            calls.handle_creates.insert(f, fields);
            calls.wrapped.push(at);
        }
        for (f, at) in found.value_creates {
            calls.value_creates.insert(f);
            calls.wrapped.push(at);
        }
        calls.wrapped.sort();
        calls.joins.extend(found.joins);
        calls.handle_joins = found.handle_joins;
        calls
    }

    pub(super) fn is_create(&self, f: FuncId) -> bool {
        self.creates.contains_key(&f)
    }

    /// Whether a call of `f` returns the id of the thread it creates ([`wrappers`]).
    pub(super) fn is_value_create(&self, f: FuncId) -> bool {
        self.value_creates.contains(&f)
    }

    /// Whether `f` is the library's `pthread_create` (not a wrapper).
    pub(super) fn is_library_create(&self, f: FuncId) -> bool {
        self.library_creates.contains(&f)
    }

    /// The thread-id argument of a call of `f`, if `f` creates (`is_create`) or joins.
    pub(super) fn id_arg(&self, f: FuncId, is_create: bool) -> Option<usize> {
        let table = if is_create {
            &self.creates
        } else {
            &self.joins
        };
        table.get(&f).map(|&k| usize::from(k))
    }
}

/// Where a create or join call sits and what it names.
struct Site {
    at: StmtAt,
    path: IdPath,
    /// The counted loop it is in, if its index is that loop's counter.
    in_loop: Option<usize>,
    /// Whether the statement's block lies on any cycle.
    cyclic: bool,
    /// A call of a create wrapper (not of `pthread_create` itself).
    wrapper: bool,
    /// For a call of a handle create or join wrapper, the assignment of the handle variable
    /// that names the thread there ([`wrappers::HandleSite::def`]): a join ends the thread of a
    /// create only if both name the same.
    def: Option<StmtAt>,
}

/// What the whole program says about thread ids before any create is matched.
struct Planner<'p> {
    p: &'p Program,
    /// The program's call sites.
    index: &'p Calls,
    calls: ThreadCalls,
    /// Everything that may change a thread id.
    writers: Writers,
    /// The assignments of each variable.
    assigns: FxHashMap<VarId, Vec<StmtAt>>,
    /// Joins of single global thread ids, in any function.
    global_joins: Vec<(StmtAt, IdPath)>,
    /// Join loops over global arrays, in any function.
    global_join_loops: Vec<JoinLoop>,
    /// The trusted heap blocks of thread ids held in global pointers ([`trusted_global_heaps`]),
    /// by the function of each pointer's one assignment, with its block.
    global_heaps: FxHashMap<FuncId, Vec<(VarId, BlockId)>>,
    /// How many creates of the whole program hand over an element (or the whole) of each array.
    handed_arrays: FxHashMap<VarId, usize>,
    plan: JoinPlan,
}

/// The facts of one function that matching its creates needs.
struct FnFacts<'p> {
    f: FuncId,
    func: &'p Func,
    cfg: Cfg,
    /// Its counted loops with their blocks.
    loops: CountedLoops,
    /// Whether each block lies on a cycle.
    cyclic: Vec<bool>,
    /// The trusted heap blocks of thread ids, by pointer, with the block of its assignment.
    heaps: FxHashMap<VarId, BlockId>,
}

/// Finds the thread handles of a program.
pub fn plan(
    p: &Program,
    index: &Calls,
    main: Option<FuncId>,
    stats: &solver::stats::Stats,
) -> JoinPlan {
    let mut calls = ThreadCalls::new(p, index);
    let (writers, assigns) = writers(p, &calls);
    // Pools need the whole program's writers; their wrappers are then handle wrappers whose
    // thread id is a whole block of them.
    let once = main.map_or_else(Vec::new, |main| {
        crate::analyses::once::run_once(p, index, main)
    });
    let mut pools = pools::find(p, &once, &calls, &writers, &assigns);
    pools.inits.extend(arrays::find(p, &once, &calls, &assigns));
    let mut pool_creates = Vec::new();
    for (f, (ids, at)) in pools.creates {
        calls.pool_ids.insert(ids.clone());
        calls.handle_creates.insert(f, ids);
        calls.wrapped.push(at);
        pool_creates.push(at);
    }
    for init in &pools.inits {
        calls.wrapped.push(init.create);
        pool_creates.push(init.create);
    }
    calls.wrapped.sort();
    calls.handle_joins.extend(pools.joins);
    let join_exits = pools.join_exits;
    let mut global_heaps: FxHashMap<FuncId, Vec<(VarId, BlockId)>> = FxHashMap::default();
    for (w, (g, b)) in trusted_global_heaps(p, &assigns, &calls) {
        global_heaps.entry(g).or_default().push((w, b));
    }
    let mut planner = Planner {
        p,
        index,
        calls,
        writers,
        assigns,
        global_joins: Vec::new(),
        global_join_loops: Vec::new(),
        global_heaps,
        handed_arrays: FxHashMap::default(),
        plan: JoinPlan {
            run_once: once,
            ..JoinPlan::default()
        },
    };
    planner.global_joins = planner.global_joins();
    planner.global_join_loops = planner.global_join_loops();
    // The create inside each wrapper gets a handle that names no join: its threads are ended by
    // the joins of the handle of the wrapper's call.
    for &at in &planner.calls.wrapped {
        let handle = ThreadHandle(planner.plan.handles);
        planner.plan.handles += 1;
        planner.plan.create.insert(at, handle);
        planner.plan.wrapped.push(handle);
        if pool_creates.contains(&at) {
            planner.plan.wrapped_loops.push(handle);
        }
    }
    // The pools a function that runs once owns: its one call of the init wrapper names the
    // workers, its calls of the join wrapper on the same variable end them.
    for init in &pools.inits {
        let handle = ThreadHandle(planner.plan.handles);
        planner.plan.handles += 1;
        planner.plan.create.insert(init.call, handle);
        for &j in &init.joins {
            planner.plan.join_after.insert(j, handle);
        }
    }
    for (f, func) in p.funcs.iter_enumerated() {
        if func.defined && func.origin == Origin::User {
            planner.function(f, func);
        }
    }
    if let Some(main) = main {
        stats.time("analyses: joins: counter joins", || {
            let once = planner.plan.run_once.clone();
            planner.counter_joins(&once);
        });
        stats.time("analyses: joins: hand-shakes", || {
            planner.handshakes(main, solver::threads::phases::MAX_HANDSHAKES as usize);
            planner.semaphore_handshakes(main, solver::threads::phases::MAX_HANDSHAKES as usize)
        });
        stats.time("analyses: joins: turns", || planner.turns(main));
        stats.time("analyses: joins: turns of lock objects", || {
            planner.object_turns(main)
        });
        stats.count("turn variables", planner.plan.turns.len());
    }
    planner.registries();
    // An array handed over by two creates may give one element to two threads.
    planner.param_joins(&join_exits);
    let handed = std::mem::take(&mut planner.handed_arrays);
    planner
        .plan
        .element_handoffs
        .retain(|_, (array, _)| handed.get(array) == Some(&1));
    let handoffs = &planner.plan.element_handoffs;
    planner
        .plan
        .element_joins
        .retain(|_, (_, _, create)| handoffs.contains_key(create));
    if main.is_some() {
        stats.time("analyses: joins: presumed counter joins", || {
            let once = planner.plan.run_once.clone();
            planner.presumed_joins(&once);
        });
    }
    planner.plan
}

/// Whole-program: everything that may change a thread id, and every variable's assignments.
fn writers(p: &Program, calls: &ThreadCalls) -> (Writers, FxHashMap<VarId, Vec<StmtAt>>) {
    let mut writers = Writers {
        unions: p
            .types
            .structs
            .iter_enumerated()
            .filter(|(_, d)| d.kind == crate::ir::ctypes::StructKind::Union)
            .map(|(sid, _)| sid.0)
            .collect(),
        ..Writers::default()
    };
    let mut assigns: FxHashMap<VarId, Vec<StmtAt>> = FxHashMap::default();
    let mut creates_counted: FxHashSet<StmtAt> = FxHashSet::default();
    for (f, func) in p.funcs.iter_enumerated() {
        let mut fresh = FreshObjects::new(p, f, func);
        let copies = wrappers::value_copies(p, calls, f, func);
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let mut t = touched(p, &stmt.kind, calls);
                if copies.contains(&(b, k)) {
                    t.created = t.written.pop();
                }
                // A value create wrapper's call assigns the place it creates.
                if let (
                    Some((v, _)),
                    StmtKind::Call {
                        callee: Callee::Direct(c),
                        ..
                    },
                ) = (&t.created, &stmt.kind)
                {
                    if calls.is_value_create(*c) {
                        assigns.entry(*v).or_default().push((f, b, k));
                    }
                }
                for (v, steps) in t.written {
                    assigns.entry(v).or_default().push((f, b, k));
                    // A global's initializer runs before `main`, so before any create: it
                    // cannot overwrite a thread id (the addresses it takes still count).
                    if func.origin != Origin::GlobalInit {
                        writers.written.entry(v).or_default().push(steps);
                    }
                }
                for (v, steps) in t.addr {
                    writers.addr.entry(v).or_default().push(steps);
                }
                writers
                    .fields_through_pointers
                    .extend(t.fields_through_pointers);
                writers
                    .structs_through_pointers
                    .extend(t.structs_through_pointers);
                // A copy's create is its original's: each writes the fresh object of its own
                // run, as one create run twice does ([`crate::specialise`]).
                if let Some(field) = t.created_through_pointer {
                    if creates_counted.insert((p.original(f), b, k)) {
                        *writers.created_through_pointers.entry(field).or_default() += 1;
                    }
                }
                writers
                    .fields_addressed_through_pointers
                    .extend(t.fields_addressed_through_pointers);
                for (s, var) in t.structs_to_library {
                    if !var.is_some_and(|v| fresh.untouched_at(v, (b, k))) {
                        writers.structs_to_library.insert(s);
                    }
                }
                if let Some((var, steps)) = t.created {
                    *writers
                        .creates
                        .entry(var)
                        .or_default()
                        .entry(steps)
                        .or_default() += 1;
                }
            }
        }
    }
    (writers, assigns)
}

/// The fresh objects of one function that a library function may receive before anything is
/// stored in them: `t = malloc(…); memset(t, 0, sizeof *t);` (or any library call given `t`)
/// writes no thread id, count or handle, as nothing has been stored there yet, and the
/// object is new, so no other object's are touched. `t` is a local of the function assigned
/// once a fresh block ([`fresh_block`]); the call is reached from no statement that stores
/// through `t`, passes it to another call, or copies it.
struct FreshObjects<'p> {
    p: &'p Program,
    f: FuncId,
    func: &'p Func,
    cfg: Option<Cfg>,
    /// Per local asked about: the statements that use it other than its assignment, or `None`
    /// when it is not a fresh object.
    uses: FxHashMap<VarId, Option<Vec<(BlockId, usize)>>>,
}

impl<'p> FreshObjects<'p> {
    fn new(p: &'p Program, f: FuncId, func: &'p Func) -> FreshObjects<'p> {
        FreshObjects {
            p,
            f,
            func,
            cfg: None,
            uses: FxHashMap::default(),
        }
    }

    /// Whether the library call at `at`, given the local `v`, reaches a fresh object that
    /// nothing has used yet.
    fn untouched_at(&mut self, v: VarId, at: (BlockId, usize)) -> bool {
        let (p, f, func) = (self.p, self.f, self.func);
        let uses = self.uses.entry(v).or_insert_with(|| {
            fresh_block(p, f, func, v).then(|| {
                let mut out = Vec::new();
                for (b, block) in func.blocks.iter_enumerated() {
                    for (k, stmt) in block.stmts.iter().enumerate() {
                        let mut m = crate::ir::visit::Mentions::of(v);
                        crate::ir::visit::walk_stmt(&mut m, &stmt.kind);
                        let assigns_v = matches!(&stmt.kind,
                            StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. }
                                if matches!(dst.base, Base::Var(d) if d == v) && dst.proj.is_empty());
                        if m.count > 0 && !assigns_v {
                            out.push((b, k));
                        }
                    }
                }
                out
            })
        });
        let Some(uses) = uses.as_ref() else {
            return false;
        };
        let cfg = self.cfg.get_or_insert_with(|| Cfg::new(func));
        uses.iter().filter(|&&u| u != at).all(|&(ub, uk)| {
            if ub == at.0 && uk < at.1 {
                return false;
            }
            // The call's block is not reached from the use's successors.
            !cfg.succs[ub.0 as usize]
                .iter()
                .any(|&s| s == at.0 .0 as usize || cfg.reachable(s, |_| false)[at.0 .0 as usize])
        })
    }
}

impl<'p> Planner<'p> {
    /// [`JoinPlan::param_joins`]: one parameter handle per pool join wrapper, joined on entry
    /// to its join loop's exit, and each matched call of the wrapper mapped to the handle it
    /// joins. A call of the wrapper that joins no handle maps nothing, and its parameter handle
    /// then ends no thread.
    fn param_joins(&mut self, join_exits: &FxHashMap<FuncId, BlockId>) {
        let mut wrappers: Vec<(FuncId, BlockId)> =
            join_exits.iter().map(|(&w, &exit)| (w, exit)).collect();
        wrappers.sort();
        let mut own: FxHashMap<FuncId, ThreadHandle> = FxHashMap::default();
        for (w, exit) in wrappers {
            let handle = ThreadHandle(self.plan.handles);
            self.plan.handles += 1;
            self.plan
                .join_at_entry
                .entry((w, exit))
                .or_default()
                .push(handle);
            own.insert(w, handle);
        }
        let mut calls: Vec<(StmtAt, ThreadHandle)> = self
            .plan
            .join_after
            .iter()
            .map(|(&at, &h)| (at, h))
            .collect();
        calls.sort();
        for ((f, b, k), joined) in calls {
            let StmtKind::Call {
                callee: Callee::Direct(w),
                ..
            } = &self.p.funcs[f].blocks[b].stmts[k].kind
            else {
                continue;
            };
            if let Some(&param) = own.get(w) {
                self.plan.param_joins.insert((f, b, k), (param, joined));
            }
        }
    }

    /// The calls of library function `kind` (a create or a join) in the user functions, with
    /// their position and thread-id argument.
    fn thread_calls(
        &self,
        is_create: bool,
    ) -> impl Iterator<Item = (StmtAt, &'p Func, &'p Operand)> + '_ {
        let p = self.p;
        (self.index.sites().iter())
            .filter(move |site| {
                let func = &p.funcs[site.caller];
                func.defined && func.origin == Origin::User
            })
            .filter_map(move |site| {
                let k = self.calls.id_arg(site.callee?, is_create)?;
                let func = &p.funcs[site.caller];
                let StmtKind::Call { args, .. } = &func.blocks[site.block].stmts[site.stmt].kind
                else {
                    return None;
                };
                Some(((site.caller, site.block, site.stmt), func, args.get(k)?))
            })
    }

    /// Joins of a global thread id (a single thread, not an array element) may be in any
    /// function: the create's thread is unique in the program if its function runs once, which
    /// the thread analysis checks (`JoinPlan::global`).
    fn global_joins(&self) -> Vec<(StmtAt, IdPath)> {
        let mut out = Vec::new();
        for (at, _, id) in self.thread_calls(false) {
            let Operand::Use(lv) = id.without_casts() else {
                continue;
            };
            let Some(path) = id_path(lv) else { continue };
            let Some(var) = path.var() else { continue };
            if path.index.is_none() && self.writers.trustworthy(&path) && is_global(self.p, var) {
                out.push((at, path));
            }
        }
        out
    }

    /// Join loops over global arrays, in any function (a `stop` function for a `start` one).
    fn global_join_loops(&self) -> Vec<JoinLoop> {
        let p = self.p;
        let mut out = Vec::new();
        let mut cfgs: FxHashMap<FuncId, (Cfg, CountedLoops)> = FxHashMap::default();
        for ((f, b, _), func, id) in self.thread_calls(false) {
            let Some(path) = site_path(p, false, id) else {
                continue;
            };
            let IdBase::Var(var) = path.base else {
                continue;
            };
            if !is_global(p, var) || !self.writers.trustworthy(&path) {
                continue;
            }
            let Some(i) = path.index else { continue };
            let (cfg, loops) = cfgs.entry(f).or_insert_with(|| {
                let cfg = Cfg::new(func);
                let loops = counted_loops(func, &cfg);
                (cfg, loops)
            });
            let Some((l2, blocks2)) = loops
                .iter()
                .find(|(l, bl)| l.counter == i && bl.contains(&(b.0 as usize)))
            else {
                continue;
            };
            if join_loop_complete(p, func, f, cfg, l2, blocks2, b, &self.assigns) {
                out.push(JoinLoop {
                    func: f,
                    path,
                    l: *l2,
                    blocks: blocks2.clone(),
                });
            }
        }
        out
    }

    /// Matches the creates of one function with their joins.
    fn function(&mut self, f: FuncId, func: &'p Func) {
        let cfg = Cfg::new(func);
        let loops = counted_loops(func, &cfg);
        let cyclic: Vec<bool> = (0..func.blocks.len())
            .map(|b| on_any_cycle(&cfg, b))
            .collect();
        let mut heaps = trusted_heaps(self.p, f, func, &cyclic, &self.assigns, &self.calls);
        heaps.extend(self.global_heaps.get(&f).into_iter().flatten().copied());
        let fx = FnFacts {
            f,
            func,
            cfg,
            loops,
            cyclic,
            heaps,
        };
        let (create_sites, join_sites, indexed_joins) = self.sites(&fx);
        for create in &create_sites {
            let handle = ThreadHandle(self.plan.handles);
            let used = match (create.path.index, create.in_loop) {
                (None, _) if !create.cyclic => {
                    let single = self.match_single(create, &join_sites, handle);
                    let element = self.match_element(&fx, create, &indexed_joins, handle);
                    single || element
                }
                (Some(_), Some(li)) => self.match_loop(&fx, create, li, &join_sites, handle),
                _ => false,
            };
            if used {
                self.plan.create.insert(create.at, handle);
                self.plan.handles += 1;
            }
            self.plan.global.dedup();
        }
        failed_creates(f, func, &fx.cfg, &fx.cyclic, &self.calls, &mut self.plan);
        guarded_joins(self.p, &fx, &self.assigns, &mut self.plan);
        self.create_trips(&fx);
    }

    /// Records [`JoinPlan::create_trips`] for the creates of one function.
    fn create_trips(&mut self, fx: &FnFacts<'_>) {
        for (b, block) in fx.func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    ..
                } = &stmt.kind
                else {
                    continue;
                };
                if !self.calls.is_library_create(*c) {
                    continue;
                }
                let at = b.0 as usize;
                let trips = if fx.cyclic[at] {
                    fx.loops.iter().find_map(|(l, blocks)| {
                        let LoopBound::Const(bound) = l.bound else {
                            return None;
                        };
                        let inside = blocks.contains(&at)
                            && !monotone::create_on_other_cycle(self.p, fx, (b, k), l);
                        let clean = inside
                            && loop_is_clean(self.p, fx.func, fx.f, l, blocks, &self.assigns);
                        clean
                            .then(|| trip_count(l.start, l.op, bound).map(|n| (n, Some(l.counter))))
                            .flatten()
                    })
                } else {
                    Some((1, None))
                };
                if let Some((n, counter)) = trips {
                    self.plan.create_trips.insert((fx.f, b, k), n);
                    if let Some(c) = counter {
                        self.plan.create_counters.insert((fx.f, b, k), c);
                    }
                }
            }
        }
        self.element_handoffs(fx);
    }

    /// Records the candidates of [`JoinPlan::element_handoffs`] among the creates of one
    /// function, and counts the arrays every create hands over ([`plan`] keeps the arrays
    /// handed over once).
    fn element_handoffs(&mut self, fx: &FnFacts<'_>) {
        let mut unique = None;
        for (b, block) in fx.func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    ..
                } = &stmt.kind
                else {
                    continue;
                };
                let Some(Kind::Fork { arg: Some(a), .. }) = self.p.known_kind(*c) else {
                    continue;
                };
                let Some(handed) = args.get(usize::from(a)) else {
                    continue;
                };
                // Every variable the argument is computed from counts as handed over: a
                // create that hands the whole block (or an element by another index) makes
                // that memory no single thread's element.
                let mut named = Named::default();
                crate::ir::visit::walk_operand(&mut named, handed);
                for v in named.vars {
                    *self.handed_arrays.entry(v).or_default() += 1;
                }
                let counted = counter_value(self.p, handed)
                    .and_then(|c| Some((c, self.create_loop(fx, (b, k), c)?)));
                if let Some((counter, l)) = counted {
                    self.plan.value_handoffs.insert((fx.f, b, k), counter);
                    self.plan.value_loops.insert((fx.f, b, k), l);
                } else if let Some(counter) = monotone::growing_counter(self.p, fx, (b, k), handed)
                {
                    self.plan.value_handoffs.insert((fx.f, b, k), counter);
                }
                if let Some(joins) = self.object_handoff(fx, &mut unique, (b, k), *c, args) {
                    self.plan.object_joins.extend(joins);
                }
                let Some((array, counter, qualifies)) = self.handed_element(fx, handed) else {
                    continue;
                };
                let Some(counter) = counter else { continue };
                let in_loop = self.create_loop(fx, (b, k), counter).is_some();
                if qualifies && in_loop {
                    self.plan
                        .element_handoffs
                        .insert((fx.f, b, k), (array, counter));
                    let ids = match self.p.known_kind(*c) {
                        Some(Kind::Fork { id: Some(id), .. }) => args.get(usize::from(id)),
                        _ => None,
                    };
                    // The ids must be stored at the element's own index, so that `t[j]` is
                    // the thread that got `a[j]`.
                    if let Some((ids, _)) = ids
                        .and_then(|op| self.local_indexed(fx, op, true))
                        .filter(|&(_, index)| index == counter)
                    {
                        let joins = self.element_joins(fx, (fx.f, b, k), ids, array);
                        self.plan.element_joins.extend(joins.into_iter().flatten());
                    }
                }
            }
        }
    }

    /// Whether block `at` lies in a counted loop over `counter` whose counter changes only in
    /// its increment, and on no other cycle: each run of the function passes there once per
    /// value of the counter.
    fn in_clean_loop(&self, fx: &FnFacts<'_>, at: usize, counter: VarId) -> bool {
        self.clean_loop(fx, at, counter).is_some()
    }

    /// The clean counted loop over `counter` that the create at `(b, k)` lies in, on no other
    /// cycle but one that retries it when it fails ([`monotone::create_on_other_cycle`]).
    fn create_loop(
        &self,
        fx: &FnFacts<'_>,
        (b, k): (BlockId, usize),
        counter: VarId,
    ) -> Option<CountedLoop> {
        let at = b.0 as usize;
        fx.loops.iter().find_map(|(l, blocks)| {
            (l.counter == counter
                && blocks.contains(&at)
                && !monotone::create_on_other_cycle(self.p, fx, (b, k), l)
                && loop_is_clean(self.p, fx.func, fx.f, l, blocks, &self.assigns))
            .then_some(*l)
        })
    }

    /// The clean counted loop over `counter` that block `at` lies in, on no other cycle.
    fn clean_loop(&self, fx: &FnFacts<'_>, at: usize, counter: VarId) -> Option<CountedLoop> {
        fx.loops.iter().find_map(|(l, blocks)| {
            (l.counter == counter
                && blocks.contains(&at)
                && !fx.cfg.on_other_cycle(at, l)
                && loop_is_clean(self.p, fx.func, fx.f, l, blocks, &self.assigns))
            .then_some(*l)
        })
    }

    /// The local array of `fx` an operand names an element of by a variable index, and that
    /// index: `&t[i]` (`address`) or `t[i]`.
    fn local_indexed(
        &self,
        fx: &FnFacts<'_>,
        op: &Operand,
        address: bool,
    ) -> Option<(VarId, VarId)> {
        let lv = match (op.without_casts(), address) {
            (Operand::AddrOf(lv), true) | (Operand::Use(lv), false) => lv,
            _ => return None,
        };
        let (Base::Var(t), [Proj::Index(Some(i))]) = (&lv.base, lv.proj.as_slice()) else {
            return None;
        };
        let var = &self.p.vars[*t];
        let local = matches!(var.kind, VarKind::Local(g) if g == fx.f);
        (local && matches!(self.p.types.get(var.ty), Type::Array(_))).then_some((*t, *i))
    }

    /// The joins after which the element or object `array[j]` handed over by `create` is its
    /// creator's again ([`JoinPlan::element_joins`], [`JoinPlan::object_joins`]): the create's
    /// thread ids went to the local array `ids`, and every statement naming `ids` must be that
    /// create or a join of `ids[j]` in a clean counted loop over `j`, on no other cycle (`None`
    /// otherwise).
    fn element_joins(
        &self,
        fx: &FnFacts<'_>,
        create: StmtAt,
        ids: VarId,
        array: VarId,
    ) -> Option<Vec<TakeBack>> {
        let mut joins = Vec::new();
        for (b, block) in fx.func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let mut mentions = crate::ir::visit::Mentions::of(ids);
                crate::ir::visit::walk_stmt(&mut mentions, &stmt.kind);
                if mentions.count == 0 || (fx.f, b, k) == create {
                    continue;
                }
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    ..
                } = &stmt.kind
                else {
                    return None;
                };
                let Some(Kind::Join { id, .. }) = self.p.known_kind(*c) else {
                    return None;
                };
                let (named, j) = args
                    .get(usize::from(id))
                    .and_then(|op| self.local_indexed(fx, op, false))?;
                let at = b.0 as usize;
                let in_loop = self.in_clean_loop(fx, at, j);
                if mentions.count != 1 || named != ids || !in_loop {
                    return None;
                }
                joins.push(((fx.f, b, k), (array, j, create)));
            }
        }
        Some(joins)
    }

    /// What a create hands over, when it is memory of an array: the array (or the pointer to
    /// the block), the index variable when it is one, and whether the memory qualifies for a
    /// hand-off: `&a[i]` of a local array of the function or a global one, or `v + i` (`&v[i]`)
    /// for a local pointer `v` to a block this run of the function allocated
    /// ([`fresh_block`]).
    fn handed_element(
        &self,
        fx: &FnFacts<'_>,
        handed: &Operand,
    ) -> Option<(VarId, Option<VarId>, bool)> {
        let p = self.p;
        match handed.without_casts() {
            Operand::AddrOf(Lval {
                base: Base::Var(array),
                proj,
                ..
            }) => {
                let var = &p.vars[*array];
                let array_var = matches!(
                    var.kind,
                    VarKind::Global {
                        thread_local: false,
                        ..
                    }
                ) || matches!(var.kind, VarKind::Local(g) if g == fx.f);
                let is_array = matches!(p.types.get(var.ty), Type::Array(_));
                let counter = match proj.as_slice() {
                    [Proj::Index(Some(i))] => Some(*i),
                    _ => None,
                };
                Some((*array, counter, array_var && is_array))
            }
            Operand::AddrOf(Lval {
                base: Base::Deref(op),
                proj,
                ..
            }) if proj.is_empty() => self.handed_element(fx, op),
            Operand::Arith(_, _, ops) => {
                let (v, i) = match ops.as_slice() {
                    [a, b] => (a.plain_var()?, b.plain_var()),
                    _ => return None,
                };
                if !matches!(p.types.get(p.vars[v].ty), Type::Pointer(_)) {
                    return None;
                }
                Some((v, i, fresh_block(p, fx.f, fx.func, v)))
            }
            _ => None,
        }
    }

    /// The creates and joins of a function whose thread id can be trusted, and the joins in a
    /// counted loop of an element of a local array indexed by its counter, trusted or not (see
    /// [`Planner::match_element`]).
    fn sites(&self, fx: &FnFacts<'_>) -> (Vec<Site>, Vec<Site>, Vec<Site>) {
        let mut creates = Vec::new();
        let mut joins = Vec::new();
        let mut indexed_joins = Vec::new();
        for (b, block) in fx.func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                let StmtKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    dst,
                } = &stmt.kind
                else {
                    continue;
                };
                let (is_create, path, trusted, def) =
                    match self.handle_site(fx, (fx.f, b, k), *c, dst.as_ref(), args) {
                        Some(site) => (site.is_create, site.path, site.trusted, site.def),
                        None => {
                            // A value create wrapper's call creates the id it stores, or
                            // the copy of it out of the lowering's temporary.
                            let kept = (dst.as_ref())
                                .filter(|_| self.calls.is_value_create(*c))
                                .and_then(|d| self.handle_result(fx, (fx.f, b, k), d));
                            let returned = kept.map(|(d, _)| Operand::AddrOf(d.clone()));
                            let is_create = returned.is_some() || self.calls.is_create(*c);
                            let Some(id) = returned.as_ref().or_else(|| {
                                self.calls.id_arg(*c, is_create).and_then(|k| args.get(k))
                            }) else {
                                continue;
                            };
                            let Some(path) = site_path(self.p, is_create, id) else {
                                continue;
                            };
                            let trusted = match path.base {
                                IdBase::Var(_) => self.writers.trustworthy(&path),
                                IdBase::Heap(w) => fx.heaps.contains_key(&w),
                                IdBase::GlobalHandle(_) => false,
                            };
                            (is_create, path, trusted, None)
                        }
                    };
                let in_loop = path.index.and_then(|i| {
                    fx.loops
                        .iter()
                        .position(|(l, blocks)| l.counter == i && blocks.contains(&(b.0 as usize)))
                });
                if !is_create && in_loop.is_some() && matches!(path.base, IdBase::Var(_)) {
                    indexed_joins.push(Site {
                        at: (fx.f, b, k),
                        path: path.clone(),
                        in_loop,
                        cyclic: fx.cyclic[b.0 as usize],
                        wrapper: false,
                        def,
                    });
                }
                if !trusted {
                    continue;
                }
                let site = Site {
                    at: (fx.f, b, k),
                    path,
                    in_loop,
                    cyclic: fx.cyclic[b.0 as usize],
                    wrapper: is_create && !self.calls.is_library_create(*c),
                    def,
                };
                if is_create {
                    creates.push(site);
                } else {
                    joins.push(site);
                }
            }
        }
        (creates, joins, indexed_joins)
    }

    /// A create outside any loop of one element of a local array by a constant index
    /// (`pthread_create(&t[1], …)`), joined by a join loop over that array whose constant range
    /// contains the index (`for (i = 0; i < 2; i++) pthread_join(t[i], …)`): the loop's
    /// iteration for that index joins the element, which only its create writes (the create's
    /// path is trusted), so the thread has ended where the loop exits. Other elements may hold
    /// anything: they are other iterations' business.
    fn match_element(
        &mut self,
        fx: &FnFacts<'_>,
        create: &Site,
        indexed_joins: &[Site],
        handle: ThreadHandle,
    ) -> bool {
        let Some(var) = create.path.var() else {
            return false;
        };
        let Some((&(marker, element), outer)) = create.path.fields.split_last() else {
            return false;
        };
        if marker != ids::CONST_ELEMENT || is_global(self.p, var) || create.wrapper {
            return false;
        }
        let k = i64::from(element);
        let mut used = false;
        for join in indexed_joins {
            let Some(lj) = join.in_loop else { continue };
            let (l2, blocks2) = &fx.loops[lj];
            let LoopBound::Const(bound) = l2.bound else {
                continue;
            };
            let covers = l2.start <= k
                && match l2.op {
                    LoopCmp::Lt | LoopCmp::Ne => k < bound,
                    LoopCmp::Le => k <= bound,
                };
            if join.path.base == create.path.base
                && join.path.fields == outer
                && join.path.after == create.path.after
                && covers
                && join_loop_complete(
                    self.p,
                    fx.func,
                    fx.f,
                    &fx.cfg,
                    l2,
                    blocks2,
                    join.at.1,
                    &self.assigns,
                )
            {
                self.plan
                    .join_at_entry
                    .entry((fx.f, l2.exit))
                    .or_default()
                    .push(handle);
                used = true;
            }
        }
        used
    }

    /// A create outside any loop: joined by the joins of the same id, in this function for a
    /// local id or one in the object a trusted local pointer points to (`&h->tid`, the pointer
    /// assigned once a fresh block that nothing else reaches or writes), anywhere for a global
    /// one (then only if its function runs once). A handle create wrapper's handle is joined
    /// in this function where the same assignment of the handle reaches the join; when the
    /// handle is a global place, only if the function runs in no thread and is not recursive,
    /// which the thread analysis checks (`JoinPlan::global`).
    fn match_single(&mut self, create: &Site, join_sites: &[Site], handle: ThreadHandle) -> bool {
        let var = match create.path.base {
            IdBase::Var(v) => v,
            IdBase::Heap(_) | IdBase::GlobalHandle(_) => {
                let mut used = false;
                for join in join_sites
                    .iter()
                    .filter(|j| j.path == create.path && j.def == create.def)
                {
                    self.plan.join_after.insert(join.at, handle);
                    used = true;
                }
                let global = match create.path.base {
                    IdBase::Heap(w) => is_global(self.p, w),
                    _ => true,
                };
                if used && global {
                    self.plan.global.push(handle);
                }
                return used;
            }
        };
        let mut used = false;
        if is_global(self.p, var) && create.wrapper {
            return false;
        }
        if is_global(self.p, var) {
            for (at, _) in self
                .global_joins
                .iter()
                .filter(|(_, path)| *path == create.path)
            {
                self.plan.join_after.insert(*at, handle);
                self.plan.global.push(handle);
                used = true;
            }
        } else {
            for join in join_sites.iter().filter(|j| j.path == create.path) {
                self.plan.join_after.insert(join.at, handle);
                used = true;
            }
        }
        used
    }

    /// A create loop (the `li`-th counted loop): joined where a join loop over the same array
    /// and range, or over the count the create loop reached, exits.
    fn match_loop(
        &mut self,
        fx: &FnFacts<'_>,
        create: &Site,
        li: usize,
        join_sites: &[Site],
        handle: ThreadHandle,
    ) -> bool {
        let (l1, blocks1) = &fx.loops[li];
        if !loop_is_clean(self.p, fx.func, fx.f, l1, blocks1, &self.assigns) {
            return false;
        }
        // A create loop inside another loop (rounds of workers) is matched only with a join
        // loop whose exit every other cycle through it passes: each round's threads are then
        // joined before the next round's creates.
        let outer = monotone::create_on_other_cycle(self.p, fx, (create.at.1, create.at.2), l1);
        let rejoined = |l2: &crate::ir::CountedLoop| {
            let avoid = l2.exit.0 as usize;
            !fx.cfg
                .on_other_cycle_avoiding(create.at.1 .0 as usize, l1, avoid)
                && !fx
                    .cfg
                    .on_other_cycle_avoiding(l1.head.0 as usize, l1, avoid)
        };
        // Through a pointer: its one assignment is before both loops (it is on no cycle, so in
        // neither), and the indexes are not negative.
        let heap_init = match create.path.base {
            IdBase::Heap(w) => {
                if l1.start < 0 {
                    return false;
                }
                fx.heaps.get(&w).map(|b| b.0 as usize)
            }
            IdBase::GlobalHandle(_) => return false,
            IdBase::Var(var) if is_global(self.p, var) => {
                return !create.wrapper && self.match_global_array(fx, create, l1, blocks1, handle);
            }
            IdBase::Var(_) => None,
        };
        let mut used = false;
        for join in join_sites {
            let Some(lj) = join.in_loop else { continue };
            let (l2, blocks2) = &fx.loops[lj];
            if outer && !rejoined(l2) {
                continue;
            }
            let same_array = join.path.base == create.path.base
                && join.path.fields == create.path.fields
                && join.path.after == create.path.after
                && heap_init.is_none_or(|b| !blocks1.contains(&b) && !blocks2.contains(&b));
            let fixed = bound_is_fixed(self.p, fx.f, l1, &self.assigns, blocks1, blocks2);
            let same_range = l1.start == l2.start
                && l1.op == l2.op
                && l1.bound == l2.bound
                && fixed != Fixed::No;
            let created_count = !same_range
                && joins_created_count(
                    fx.func,
                    fx.f,
                    &fx.cfg,
                    l1,
                    blocks1,
                    l2,
                    create.at,
                    &self.assigns,
                    &self.calls,
                );
            if same_array
                && (same_range || created_count)
                && join_loop_complete(
                    self.p,
                    fx.func,
                    fx.f,
                    &fx.cfg,
                    l2,
                    blocks2,
                    join.at.1,
                    &self.assigns,
                )
            {
                if same_range && fixed == Fixed::IfUnwritten {
                    self.plan
                        .bound_checks
                        .push(bound_check(handle, fx.f, &fx.cfg, l1, l2));
                }
                self.plan
                    .join_at_entry
                    .entry((fx.f, l2.exit))
                    .or_default()
                    .push(handle);
                used = true;
            }
        }
        if used && matches!(create.path.base, IdBase::Heap(w) if is_global(self.p, w)) {
            self.plan.global.push(handle);
        }
        used
    }

    /// A create loop over a global array: its join loops may be anywhere; the bound must be the
    /// same then as when the threads were created.
    fn match_global_array(
        &mut self,
        fx: &FnFacts<'_>,
        create: &Site,
        l1: &CountedLoop,
        blocks1: &FxHashSet<usize>,
        handle: ThreadHandle,
    ) -> bool {
        let p = self.p;
        let mut used = false;
        for jl in &self.global_join_loops {
            let same_range = l1.start == jl.l.start && l1.op == jl.l.op && l1.bound == jl.l.bound;
            let fixed = match l1.bound {
                LoopBound::Const(_) => Fixed::Proved,
                LoopBound::Var(v)
                    if is_global(p, v)
                        && global_bound_fixed(p, v, fx.f, &fx.cfg, l1, &self.assigns) =>
                {
                    Fixed::Proved
                }
                LoopBound::GlobalField { var, strukt, index }
                    if self.global_field_fixed(var, (strukt.0, index), fx.f, &fx.cfg, l1) =>
                {
                    Fixed::Proved
                }
                _ if jl.func == fx.f => {
                    bound_is_fixed(p, fx.f, l1, &self.assigns, blocks1, &jl.blocks)
                }
                _ => Fixed::No,
            };
            if jl.path.fields == create.path.fields
                && jl.path.after == create.path.after
                && jl.path.base == create.path.base
                && same_range
                && fixed != Fixed::No
            {
                if fixed == Fixed::IfUnwritten {
                    self.plan
                        .bound_checks
                        .push(bound_check(handle, fx.f, &fx.cfg, l1, &jl.l));
                }
                self.plan
                    .join_at_entry
                    .entry((jl.func, jl.l.exit))
                    .or_default()
                    .push(handle);
                // The array could be refilled by another run of the creating function (in
                // another thread) before the join: only trusted when that function runs once.
                self.plan.global.push(handle);
                used = true;
            }
        }
        used
    }
}

impl Planner<'_> {
    /// [`global_bound_fixed`] for an integer member of a global struct (`pool.size`): the
    /// member can be written only by naming the variable ([`Writers::unaliased`]: the address of
    /// the struct may be taken, as for its lock or its thread ids, if nothing writes the member
    /// through a pointer), and every statement that may write it is in the creating function
    /// `f`, before the create loop, or a global's initializer (run before `main`).
    fn global_field_fixed(
        &self,
        var: VarId,
        field: (u32, u32),
        f: FuncId,
        cfg: &Cfg,
        l: &CountedLoop,
    ) -> bool {
        let steps = [Step::Field(field.0, field.1)];
        if !self.writers.unaliased(var, &steps, &[field]) {
            return false;
        }
        let after = cfg.reachable(l.head.0 as usize, |_| false);
        let assigns = self.assigns.get(&var).map(Vec::as_slice).unwrap_or(&[]);
        assigns.iter().all(|&(g, b, k)| {
            let writes_member = match &self.p.funcs[g].blocks[b].stmts[k].kind {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                    place_of(dst).is_none_or(|(_, w)| overlaps(&w, &steps))
                }
                StmtKind::Asm { .. } => true,
                StmtKind::Call { dst: None, .. } | StmtKind::Eval(_) => false,
            };
            !writes_member || g == self.p.global_init || (g == f && !after[b.0 as usize])
        })
    }
}

/// How many times the body of `for (i = start; i OP bound; i++)` runs, when that is finite.
fn trip_count(start: i64, op: LoopCmp, bound: i64) -> Option<u64> {
    let span = i128::from(bound) - i128::from(start);
    let n = match op {
        LoopCmp::Lt => span.max(0),
        LoopCmp::Le => (span + 1).max(0),
        LoopCmp::Ne if span >= 0 => span,
        LoopCmp::Ne => return None,
    };
    u64::try_from(n).ok()
}

/// A function's counted loops, each with the blocks of its natural loop.
type CountedLoops = Vec<(CountedLoop, FxHashSet<usize>)>;

/// A join that takes back what a hand-off create handed over: the join, and the handed array,
/// the join loop's counter and the create ([`JoinPlan::element_joins`],
/// [`JoinPlan::object_joins`]).
type TakeBack = (StmtAt, (VarId, VarId, StmtAt));

/// The counted loops of a function with the blocks of each.
fn counted_loops(func: &Func, cfg: &Cfg) -> CountedLoops {
    func.counted_loops
        .iter()
        .map(|l| (*l, cfg.natural_loop(l)))
        .collect()
}

/// Whether `v`, a local pointer of `f` whose address is never taken, is assigned once in `f`:
/// by a call of an allocator (a library allocator or an allocation wrapper), or by a copy of a
/// local or temporary that is itself assigned once that way and named nowhere else (a chain of
/// such copies, as the lowering and CIL's temporaries make: `tmp = my_malloc(…); th = tmp;`).
/// Each run of `f` then gives `v` a block of its own.
fn fresh_block(p: &Program, f: FuncId, func: &Func, v: VarId) -> bool {
    let local = |x: VarId| {
        let var = &p.vars[x];
        !var.address_taken && matches!(var.kind, VarKind::Local(g) | VarKind::Temp(g) if g == f)
    };
    let allocates = |callee: &Callee| match callee {
        Callee::Direct(g) => p.known_kind(*g) == Some(Kind::Alloc) || p.is_alloc_wrapper(*g),
        Callee::Indirect(_) => false,
    };
    let assignments = |x: VarId| -> Vec<&StmtKind> {
        func.blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .map(|s| &s.kind)
            .filter(|k| match k {
                StmtKind::Assign { dst, .. } | StmtKind::Call { dst: Some(dst), .. } => {
                    matches!(dst.base, Base::Var(d) if d == x)
                }
                _ => false,
            })
            .collect()
    };
    if !local(v) {
        return false;
    }
    let mut x = v;
    // A chain longer than the lowering makes is not followed.
    for _ in 0..4 {
        match assignments(x).as_slice() {
            [StmtKind::Call { callee, .. }] => return allocates(callee),
            [StmtKind::Assign { src, .. }] => {
                let Operand::Use(Lval {
                    base: Base::Var(tmp),
                    proj,
                    ..
                }) = src.without_casts()
                else {
                    return false;
                };
                let mut mentions = crate::ir::visit::Mentions::of(*tmp);
                crate::ir::visit::walk_func(&mut mentions, func);
                if !proj.is_empty() || !local(*tmp) || mentions.count != 2 || *tmp == x {
                    return false;
                }
                x = *tmp;
            }
            _ => return false,
        }
    }
    false
}

/// The variables a walk meets, each once.
#[derive(Default)]
struct Named {
    vars: Vec<VarId>,
}

impl crate::ir::visit::Visitor for Named {
    fn visit_var(&mut self, v: VarId) {
        if !self.vars.contains(&v) {
            self.vars.push(v);
        }
    }
}

/// The integer variable a pointer argument is the value of: `(void *)i`, `(void *)(long)i`.
fn counter_value(p: &Program, op: &Operand) -> Option<VarId> {
    let Operand::Cast(ty, _) = op else {
        return None;
    };
    if !matches!(p.types.get(*ty), Type::Pointer(_)) {
        return None;
    }
    match op.without_casts() {
        Operand::Use(Lval {
            base: Base::Var(v),
            proj,
            ..
        }) if proj.is_empty() && matches!(p.types.get(p.vars[*v].ty), Type::Int) => Some(*v),
        _ => None,
    }
}
