//! Self-contained idioms a generated program may carry besides its pool of shared locations
//!: thread-locals written by name and through a pointer handed to another thread,
//! lock striping with an offset (`m[j + k]` guarding `d[j]`), a callback in the initialiser of
//! an ops table that the library calls from a thread of its own, and a global of `main.c` that
//! the library hands back through a getter, and two locks taken in opposite orders, one of them
//! on some paths only, maybe through a wrapper that locks only a non-null mutex (a potential
//! deadlock), and workers `main` waits for with a counter they
//! count down (a counter join), and threads whose ids live in heap handles and whose records come
//! from an allocator kept in a pointer or a reallocation wrapper, a tree of workers each
//! starting and joining its children while `main` joins the root, a hand-shake through a
//! flag under a mutex, and a thread pool in an object that a create wrapper fills and a join
//! wrapper empties, and fresh job objects each handed to one worker and kept in a local array
//! of pointers that the join loop reads them back from, and workers writing the slot their
//! argument names (by an `id` field, or through a pointer field), and batches of workers a
//! thread library keeps in a list it empties by joining, under a gate created lazily per
//! batch, and stashes whose locks live in gates their members point to, and a thread library's
//! launcher that starts every routine through one trampoline, and a create wrapper that returns
//! the id. Each has its own globals,
//! functions and threads;
//! `main` starts it (creates its threads and does its own concurrent work) and stops it (joins
//! them) at two points of its timeline. Whether an instance races is left to ThreadSanitizer.

use super::plan::{Event, Plan};
use super::rng::Rng;
use super::Options;

/// How a thread-local's copy reaches another thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// It does not: every thread writes its own copy by name.
    No,
    /// `&tlN` is the child's `pthread_create` argument.
    Arg,
    /// `&tlN` is stored in the global pointer `tlpN` before the child is created.
    Global,
}

/// One idiom of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Idiom {
    /// `__thread`/`_Thread_local unsigned tlN`: `threads` threads write it by name, `main`
    /// writes its own copy when `main_writes`; with sharing, an owner (`main`, or a thread
    /// `tloN` when `owner_thread`) hands its copy to a child that writes through the pointer
    /// while the owner writes by name.
    ThreadLocal {
        c11: bool,
        threads: usize,
        main_writes: bool,
        share: Share,
        owner_thread: bool,
        iterations: u32,
    },
    /// `smN[4]` and `sdN[4]`: threads `saN` lock `smN[j + offset]` and write `sdN[j]` (one per
    /// entry of `a_js`, `j` its argument); a thread `sbN` locks `smN[j]` and writes `sdN[j]`
    /// with `j = b_j`.
    Stripe {
        offset: u8,
        a_js: Vec<u8>,
        b_j: u8,
        iterations: u32,
    },
    /// (library) `static struct ops tbl = { .fn = cb }` handed to `lib_register`; `lib_start`
    /// starts a thread calling `tbl->fn`; `cb` and `main` write `cbd`, each under `cbm` or not.
    OpsCallback {
        static_table: bool,
        cb_locked: bool,
        main_locked: bool,
        iterations: u32,
    },
    /// (library) `struct sdata us`, a global of `main.c` that `lib_get_s()`
    /// returns: `main` writes `lib_get_s()->a` while a thread reads `us.a` (or `us.b`), both
    /// under `usm` or not.
    UnknownGlobal {
        reads_other: bool,
        locked: bool,
        iterations: u32,
    },
    /// `dlaN` and `dlbN`: a thread `dlxN` takes `dlaN` (only when `dlcN`, set by `main`, when
    /// `conditional`) and then `dlbN`; a thread `dlyN` takes `dlbN` then `dlaN` when `inverted`,
    /// `dlaN` then `dlbN` otherwise, both around `dldN++`. `dlyN` spins on the atomic flag
    /// `dlfN` until `dlxN` is done, so the program never deadlocks, while TSan's lock-order
    /// graph still sees both orders (locksmith does not follow the flag either). With
    /// `wrapped`, `dlxN` takes and releases `dlaN` through wrappers `dlwN`/`dluN` that lock
    /// only a non-null mutex, handed `&dlaN` or `NULL` as `dlcN` says (when `conditional`; else
    /// `&dlaN`): a wrapper that returns holding its lock on some paths only.
    LockOrder {
        conditional: bool,
        wrapped: bool,
        taken: bool,
        inverted: bool,
        iterations: u32,
    },
    /// A counter join: `main` sets `cjcN` to the number of detached workers `cjwN` it starts in
    /// a counted loop (one fewer when `short`); each worker adds to `cjdN` (under `cjmN` when
    /// `locked`), counts itself down under `cjmN` and broadcasts `cjvN`, then writes `cjeN` when
    /// `late`. At its stop `main` waits until `cjcN` is zero, under `cjmN` unless
    /// `unlocked_wait` (then it polls), and reads `cjdN` and `cjeN`. With `semaphore`, each
    /// worker posts `cjsN` (initialised to 0) instead of counting down, and `main` waits on it
    /// once per worker (one time fewer when `short`). With `in_function`, `main` calls
    /// `cjfN()` once instead, which starts the workers and waits for them, and reads `cjdN` and
    /// `cjeN` after it returns.
    CounterJoin {
        semaphore: bool,
        in_function: bool,
        workers: u8,
        locked: bool,
        late: bool,
        unlocked_wait: bool,
        short: bool,
        iterations: u32,
    },
    /// A thread library's objects: two threads `hhaN`, `hhbN` whose ids `main` keeps in heap
    /// handles (`struct hhoN { pthread_t id; }`, `malloc`ed, named by local pointers), each
    /// adding to the `count` of a record allocated through an allocator kept in a pointer
    /// (`hhfN = malloc`) or through a reallocation wrapper (`hhgN(NULL, n)`), under `hhmN` when
    /// `locked`. `main` joins `b` by its handle, writes both records, then joins `a` — or joins
    /// `a` first when `a_first` — so one write races unless it is locked. With `wrappers`, a
    /// thread library's launch and join: `hhlN` allocates the handle, creates into it and links
    /// it into a list of all handles under a lock, returning it; `hhjN` joins a handle, unlinks
    /// and frees it; the handles are kept in globals instead of locals with `global_handles`,
    /// and three more workers are launched into a local array and finished by a join loop
    /// ([`handle_array`]).
    HeapHandles {
        wrappers: bool,
        global_handles: bool,
        realloc_wrapper: bool,
        locked: bool,
        a_first: bool,
        iterations: u32,
    },
    /// A tree of `size` workers `jtnN`: node `i` starts nodes `2i+1` and `2i+2` when they
    /// exist, each under a test of a flag set once, adds to `jtcN` (under `jtmN` when
    /// `locked`) and joins its children — or detaches its right child when `detach_right`.
    /// `main` starts and joins only the root, then adds to `jtcN` without the lock.
    JoinTree {
        size: u8,
        locked: bool,
        detach_right: bool,
        iterations: u32,
    },
    /// A hand-shake: a producer `hspN` adds to `hsdN`, then sets the flag `hsfN` holding
    /// `hsmN` and broadcasts `hscN` — or sets it first when `early`; `main` waits holding
    /// `hsmN` until it sees the flag, reads `hsdN`, and joins the producer. With `semaphore`,
    /// the producer posts `hssN` (initialised to 0) instead and `main` waits on it. With
    /// `from_main`, the roles change: `main` adds and signals at its stop, and the thread waits
    /// and then adds to `hsdN`.
    Handshake {
        early: bool,
        semaphore: bool,
        from_main: bool,
        iterations: u32,
    },
    /// A thread pool in an object: `plcN(n)` allocates a `struct plpN`, keeps `n` in its `size`,
    /// allocates its block of thread ids (of worker structs `struct plkN` holding the id in
    /// `tid` and a pointer to the pool, the thread's argument, when `structs`) and starts `n`
    /// workers `plwN` into it by a create loop
    /// (bounded by `n`, or by `p->size` when `member_bound`), and returns it; `pljN(q)` joins
    /// `q->threads[j]` for `j` below `q->size` — from 1 when `short`, leaving the first worker
    /// running. Each worker adds to the pool's `done` under its lock and to `pldN` (under `plmN`
    /// when `locked`); `main` creates the pool at its start, joins it at its stop, then adds to
    /// both without a lock (and then joins the first worker, when `short`).
    Pool {
        member_bound: bool,
        short: bool,
        locked: bool,
        structs: bool,
        iterations: u32,
    },
    /// Fresh jobs: `main` allocates three `struct ojbN`, fills each in and starts a worker
    /// `ojwN` with it in a counted loop, keeping the pointer in its local array `ojaN[i]`
    /// (through a local copy when `copy`); each worker adds its job's `in` to its `out`. The
    /// loop that joins the workers reads each job's `out` and frees it after its worker's join
    /// — before it when `early` — and reads the next job's `out` too when `next`.
    Jobs {
        copy: bool,
        early: bool,
        next: bool,
        iterations: u32,
    },
    /// Slots: `main` starts three workers `slwN` in a counted loop, each with its own
    /// argument and slot (see [`SlotForm`]). With `shared`, two workers get one slot
    /// (`i / 2`). `main` joins them and reads the slots.
    Slots {
        form: SlotForm,
        shared: bool,
        iterations: u32,
    },
    /// A work queue: `main` allocates six `struct qtN`, fills each in and appends it to the
    /// list `qhN` (or pushes it, with `push`) under `qmN`; two workers `qwN` take tasks off it
    /// under `qmN`, unlinking them, add to their `out` without a lock and push them onto `qdN`,
    /// from which `main` takes them back at its stop, before the joins, and reads `out`. With
    /// `late`, a worker adds to `out` once more after pushing its task; with `peek`, a thread
    /// `qpN` reads the first task's pointer under `qmN` and adds to its `out` after unlocking.
    /// With `object`, the lists, the mutex and the end flag are members of a `struct qoN`
    /// `main` allocates and hands to the threads instead of globals.
    Queue {
        push: bool,
        late: bool,
        peek: bool,
        object: bool,
        iterations: u32,
    },
    /// Batches of workers through a thread library: per batch, `bsN()` creates the gate `bgN`
    /// (a `struct bgtN` holding a mutex) only while it is NULL, `bpN()` starts a worker `bwN`
    /// into a fresh node and pushes it onto the list `brN` (twice), and `bjN()` joins and
    /// unlinks nodes until the list is empty, then destroys the gate and resets `bgN`. Each
    /// worker adds to `bdN` under the gate (without it unless `locked`), and so does `main`
    /// between the pushes and `bjN()`; after the last batch `main` adds to `bdN` without the
    /// gate. With `stray`, each batch also starts a thread `bzN` with a plain create, joined
    /// only at the stop, that adds to `bxN`, which `main` adds to before joining them. Each
    /// setup also stores 0 into `bqN` after creating the gate, which the workers, the stray
    /// threads and `main` at its stop add to as they add to `bdN` or `bxN`. With `loops`, the
    /// workers of a batch are started by a create loop into `bwtN` and joined by a
    /// join loop instead, and `bkN()` only destroys and resets the gate. With `moved` (without
    /// `loops`), as yarn does: `bpN()` and `bjN()` hold the list's mutex `blN`, each worker as
    /// it ends marks its node done and moves it to the head of the list holding `blN`, and
    /// `bjN()` waits for a done node before it joins and unlinks it.
    Batches {
        batches: u8,
        locked: bool,
        stray: bool,
        loops: bool,
        iterations: u32,
        moved: bool,
    },
    /// Lock and join calls through pointers, as a program that picks its implementation once:
    /// two threads `mtwN` add to `mtdN` between `enter(&mtmN)` and `leave(&mtmN)`, called
    /// through the members of a table `mtaN` (with `table`) or through the pointers `mteN` and
    /// `mtlN`, which hold the lock functions `mttN` and `mtuN`; `main`'s stop calls `mtfN`,
    /// which holds `mtqN` (joining the thread `mtxN`, which adds to `mtrN`), then adds to `mtrN`.
    /// At the start, under a test the analysis cannot decide (`getpid()`), `main` stores the
    /// no-ops `mtzN` and `mtnN` in all three: with `skip` the test holds and every add races.
    Methods {
        table: bool,
        skip: bool,
        iterations: u32,
    },
    /// A state machine: a thread `smpN` stores 1 in `smsN` holding `smmN`, adds to `smdN`
    /// (after its last store when `early`), then stores 2 (and 3 when `extra`, after adding to
    /// `smxN`), each time broadcasting `smcN`; `main` waits holding `smmN` until `smsN` is the
    /// last state (an earlier one may be gone when it looks), adds to `smdN` and `smxN`, joins
    /// the thread and stores 0.
    States {
        early: bool,
        extra: bool,
        iterations: u32,
    },
    /// Helpers given an array and a count: `ahsN(ahtN, 3)` starts a worker `ahwN` into each
    /// element of `main`'s array `ahtN`, each adding to its own `ahdN[id]`, and `ahjN(ahtN, 3)`
    /// joins each element. `main` reads every `ahdN[k]` after the join, or before it when
    /// `early`.
    Helpers { early: bool, iterations: u32 },
    /// Turns: `main` and `takers` threads `tnpN` (started by a loop when two) take turns
    /// through `tntN` under `tnmN`: `main` waits for 0, adds to `tndN` and `tnlN` and stores 1;
    /// a taker waits for anything but 0, leaves at 2, adds to both and stores 0 (if it still
    /// finds 1: a second taker may have been in the same turn). `main` ends it
    /// by storing 2 in its last turn, then joins the takers. When `late`, `main` adds to
    /// `tnlN` after storing 1, out of its turn. With `helpers`, `main` waits through
    /// `tnwN(0)` and stores through `tnsN(v)`. With `observer`, a thread `tnoN` waits once for
    /// anything but 1 (`main`'s 0 included) and reads `tndN`, never storing `tntN`. With
    /// `object` 1, the value, mutex and condition are the members `value`, `mutex` and `cond`
    /// of one global struct `tnbN`, as a thread library's lock object; the helpers are then
    /// handed its address, and `tnwN(b, op, v)` waits for `v` (op 0) or for anything but `v`
    /// (op 1), which the observer waits through too. With `object` 2, the struct is made on
    /// the heap by the constructor `tnbN_new()` at the top of `main`, and `tnbN` points to it.
    Turns {
        takers: u8,
        late: bool,
        helpers: bool,
        observer: bool,
        object: u8,
        iterations: u32,
    },
    /// Locks behind members: `main` stores a fresh `struct gtN` (a mutex and a counter), made
    /// by `gtnN()`, into the member `have` of each of two stashes `gsN[k]`, in a loop (so the
    /// gates' mutexes are one lock label); worker `k` adds to its stash's `count` and its
    /// gate's `uses` holding the gate, through the wrappers `gthN`/`gtlN`. When `wrong`,
    /// worker 1 also adds to stash 0's `count` holding its own gate. When `renew`, `main`
    /// replaces stash 0's gate after the joins and adds under the new one.
    Gates {
        wrong: bool,
        renew: bool,
        iterations: u32,
    },
    /// A thread library's launcher: `lclN(probe, payload)` keeps both in a fresh capsule and
    /// starts the trampoline `lcgN`, which calls the capsule's probe, with the thread's id in a
    /// fresh handle that `lcjN` joins. `main` launches `lcaN` once (twice when `twice`), adding
    /// to `lcoN`, and `lcbN` in a loop of two, adding to `lcmN` under `lcxN` when `locked`;
    /// it reads both after the joins, or `lcoN` before them when `early`. The handles of `lcaN`
    /// are kept in the elements of an array `lcaNe` by constant indexes when `elements`.
    Launches {
        twice: bool,
        locked: bool,
        early: bool,
        iterations: u32,
        elements: bool,
    },
    /// A create wrapper that returns the id: `sttN = stsN(stwN)` starts a worker adding to
    /// `stdN`, which `main` joins and then reads `stdN`, or reads before the join when `early`.
    Starts { early: bool, iterations: u32 },
}

/// How a worker of the slots idiom finds its slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlotForm {
    /// An element of `main`'s array of `struct slaN` whose `id` `main` sets to the counter
    /// (`td[i].id = i`); the worker adds to `sldN[id]`.
    Field,
    /// A fresh `struct slaN` whose `out` points at `sloN[i]`; the worker adds through it.
    Pointer,
    /// The counter itself (`(void *)(long)i`); the worker hands `id` to a helper `slhN` that
    /// adds to `sldN[id]`.
    Helper,
    /// The counter itself; the worker adds to `slbN[id]`, a block `main` allocates before the
    /// loop and frees after the joins, and to `slpN[id]->n`, the object of its own `main`
    /// allocated for each element of another block `slpN`.
    Block,
    /// The counter itself; the worker adds to each element of its range `[id * 2, (id + 1) *
    /// 2)` of `slrN`, the last worker (`id == 2`) up to the end of `slrN`.
    Range,
    /// An element of `main`'s array of `struct slaN` whose `lo` and `hi` `main` sets to `i * 2`
    /// and `(i + 1) * 2`; the worker adds to each element of `slrN` from `lo` up to `hi`.
    Bounds,
}

/// The idioms of a program: none, one or two, of the kinds `options` allows (at most one of
/// each library kind, as those use fixed names, and of heap handles).
pub fn plan(rng: &mut Rng, options: Options) -> Vec<Idiom> {
    let count = match rng.range(0, 99) {
        0..=19 => 0,
        20..=59 => 1,
        _ => 2,
    };
    let mut kinds = vec![0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    if options.library {
        kinds.push(2);
        kinds.push(3);
    }
    let mut out = Vec::new();
    for _ in 0..count {
        let kind = *rng.pick(&kinds);
        if kind == 2 || kind == 3 || kind == 6 {
            // The library's kinds use fixed names: one of each. Heap handles, the longest, come
            // once too, so that a program stays small.
            kinds.retain(|&k| k != kind);
        }
        out.push(idiom(rng, kind));
    }
    out
}

fn idiom(rng: &mut Rng, kind: usize) -> Idiom {
    let iterations = rng.range(40, 150) as u32;
    match kind {
        0 => {
            let share = *rng.pick(&[Share::No, Share::Arg, Share::Arg, Share::Global]);
            Idiom::ThreadLocal {
                c11: rng.chance(50),
                threads: rng.range(if share == Share::No { 2 } else { 0 }, 3),
                main_writes: rng.chance(60),
                share,
                owner_thread: rng.chance(40),
                iterations,
            }
        }
        1 => {
            let offset = if rng.chance(35) {
                0
            } else {
                rng.range(1, 2) as u8
            };
            let j = || 0..=(3 - usize::from(offset));
            let first = rng.range(*j().start(), *j().end()) as u8;
            let mut a_js = vec![first];
            if rng.chance(40) {
                a_js.push(rng.range(*j().start(), *j().end()) as u8);
            }
            let b_j = if rng.chance(60) {
                first
            } else {
                rng.range(0, 3) as u8
            };
            Idiom::Stripe {
                offset,
                a_js,
                b_j,
                iterations,
            }
        }
        2 => Idiom::OpsCallback {
            static_table: rng.chance(70),
            cb_locked: rng.chance(70),
            main_locked: rng.chance(70),
            iterations,
        },
        3 => Idiom::UnknownGlobal {
            reads_other: rng.chance(20),
            locked: rng.chance(40),
            iterations,
        },
        4 => Idiom::LockOrder {
            conditional: rng.chance(60),
            wrapped: rng.chance(40),
            taken: rng.chance(80),
            inverted: rng.chance(60),
            iterations,
        },
        9 => Idiom::Pool {
            member_bound: rng.chance(50),
            short: rng.chance(25),
            locked: rng.chance(50),
            structs: rng.chance(50),
            iterations,
        },
        11 => {
            let shared = rng.chance(25);
            let form = [
                SlotForm::Field,
                SlotForm::Pointer,
                SlotForm::Helper,
                SlotForm::Block,
                SlotForm::Bounds,
                SlotForm::Range,
            ][rng.range(0, 5)];
            Idiom::Slots {
                form,
                shared,
                iterations,
            }
        }
        12 => Idiom::Queue {
            push: rng.chance(40),
            late: rng.chance(25),
            peek: rng.chance(25),
            object: rng.chance(50),
            iterations,
        },
        10 => Idiom::Jobs {
            copy: rng.chance(50),
            early: rng.chance(25),
            next: rng.chance(25),
            iterations,
        },
        8 => Idiom::Handshake {
            early: rng.chance(40),
            semaphore: rng.chance(50),
            from_main: rng.chance(40),
            iterations,
        },
        7 => Idiom::JoinTree {
            size: rng.range(2, 7) as u8,
            locked: rng.chance(60),
            detach_right: rng.chance(40),
            iterations,
        },
        6 => Idiom::HeapHandles {
            realloc_wrapper: rng.chance(50),
            locked: rng.chance(40),
            a_first: rng.chance(50),
            wrappers: rng.chance(50),
            global_handles: rng.chance(50),
            iterations,
        },
        _ => Idiom::CounterJoin {
            workers: rng.range(1, 3) as u8,
            locked: rng.chance(70),
            late: rng.chance(25),
            unlocked_wait: rng.chance(20),
            short: rng.chance(15),
            semaphore: rng.chance(40),
            in_function: rng.chance(40),
            iterations,
        },
    }
}

/// An idiom written as C, in the pieces `emit` places.
#[derive(Default)]
pub struct Parts {
    /// Types, globals and prototypes, after the library's prototypes in `main.c`.
    pub globals: String,
    /// Function definitions of `main.c`.
    pub functions: String,
    /// Declarations at the top of `main`.
    pub decls: Vec<String>,
    /// `main`'s lines where the idiom starts, and where it stops.
    pub start: Vec<String>,
    pub stop: Vec<String>,
    /// What it adds to `lib.c`.
    pub lib: String,
}

/// `pthread_create(t, NULL, f, arg)`, aborting on failure, as two lines.
fn create(t: &str, f: &str, arg: &str) -> [String; 2] {
    [
        format!("if (pthread_create({t}, NULL, {f}, {arg}) != 0)"),
        "    abort();".to_string(),
    ]
}

/// A thread function whose loop over `i` runs `body` (lines at loop depth); `prologue` comes
/// first and `epilogue` after the loop.
fn thread_fn(
    name: &str,
    prologue: &[String],
    n: u32,
    body: &[String],
    epilogue: &[&str],
) -> String {
    let mut out = format!("void *{name}(void *arg)\n{{\n");
    for p in prologue {
        out.push_str(&format!("    {p}\n"));
    }
    out.push_str(&format!("    for (unsigned i = 0; i < {n}u; i++) {{\n"));
    for b in body {
        out.push_str(&format!("        {b}\n"));
    }
    out.push_str("    }\n");
    for e in epilogue {
        out.push_str(&format!("    {e}\n"));
    }
    out.push_str("}\n\n");
    out
}

/// `body` in a loop of `main` over `i`.
fn main_loop(n: u32, body: &[String]) -> Vec<String> {
    let mut out = vec![format!("for (unsigned i = 0; i < {n}u; i++) {{")];
    out.extend(body.iter().map(|b| format!("    {b}")));
    out.push("}".into());
    out
}

/// `access` alone, or between a lock and an unlock of `lock` when `locked`.
fn maybe_locked(locked: bool, lock: &str, access: String) -> Vec<String> {
    if locked {
        vec![
            format!("pthread_mutex_lock({lock});"),
            access,
            format!("pthread_mutex_unlock({lock});"),
        ]
    } else {
        vec![access]
    }
}

/// Writes idiom number `n` of a program.
pub fn emit(idiom: &Idiom, n: usize) -> Parts {
    match idiom {
        Idiom::ThreadLocal { .. } => thread_local(idiom, n),
        Idiom::Stripe {
            offset,
            a_js,
            b_j,
            iterations,
        } => stripe(n, *offset, a_js, *b_j, *iterations),
        Idiom::OpsCallback {
            static_table,
            cb_locked,
            main_locked,
            iterations,
        } => ops_callback(n, *static_table, *cb_locked, *main_locked, *iterations),
        Idiom::UnknownGlobal {
            reads_other,
            locked,
            iterations,
        } => unknown_global(n, *reads_other, *locked, *iterations),
        Idiom::LockOrder {
            conditional,
            wrapped,
            taken,
            inverted,
            iterations,
        } => lock_order(n, *conditional, *wrapped, *taken, *inverted, *iterations),
        Idiom::CounterJoin { .. } => counter_join(idiom, n),
        Idiom::HeapHandles { .. } => heap_handles(idiom, n),
        Idiom::JoinTree {
            size,
            locked,
            detach_right,
            iterations,
        } => join_tree(n, *size, *locked, *detach_right, *iterations),
        Idiom::Handshake {
            early,
            semaphore,
            from_main,
            iterations,
        } => handshake(n, *early, *semaphore, *from_main, *iterations),
        Idiom::Pool { .. } => pool(idiom, n),
        Idiom::Jobs { .. } => jobs(idiom, n),
        Idiom::Slots {
            form,
            shared,
            iterations,
        } => slots(n, *form, *shared, *iterations),
        Idiom::Queue { .. } => queue(idiom, n),
        Idiom::Batches { .. } => batches(idiom, n),
        Idiom::Methods {
            table,
            skip,
            iterations,
        } => methods(n, *table, *skip, *iterations),
        Idiom::States {
            early,
            extra,
            iterations,
        } => states(n, *early, *extra, *iterations),
        Idiom::Helpers { early, iterations } => helpers(n, *early, *iterations),
        Idiom::Turns {
            takers,
            late,
            helpers,
            observer,
            object,
            iterations,
        } => {
            let parts = turns(n, *takers, *late, *helpers, *observer, *iterations);
            match object {
                0 => parts,
                1 => in_lock_object(n, parts, *helpers),
                _ => behind_a_pointer(n, in_lock_object(n, parts, *helpers)),
            }
        }
        Idiom::Gates {
            wrong,
            renew,
            iterations,
        } => gates(n, *wrong, *renew, *iterations),
        Idiom::Launches {
            twice,
            locked,
            early,
            iterations,
            elements,
        } => launches(n, *twice, *locked, *early, *elements, *iterations),
        Idiom::Starts { early, iterations } => starts(n, *early, *iterations),
    }
}

fn starts(n: usize, early: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!("unsigned std{n};\n"));
    p.functions += &thread_fn(
        &format!("stw{n}"),
        &[],
        it,
        &[format!("std{n} += i;")],
        &["return arg;"],
    );
    p.functions.push_str(&format!(
        "pthread_t sts{n}(void *(*routine)(void *))
{{
    pthread_t t;
    if (pthread_create(&t, NULL, routine, NULL) != 0)
        abort();
    return t;
}}

"
    ));
    p.decls.push(format!("pthread_t stt{n};"));
    p.start.push(format!("stt{n} = sts{n}(stw{n});"));
    let read = format!("printf(\"%u\\n\", std{n});");
    if early {
        p.stop.push(read.clone());
    }
    p.stop.push(format!("pthread_join(stt{n}, NULL);"));
    if !early {
        p.stop.push(read);
    }
    p
}

fn launches(n: usize, twice: bool, locked: bool, early: bool, elements: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "struct lcc{n} {{ void (*probe)(void *); void *payload; }};
struct lct{n} {{ pthread_t id; }};
unsigned lco{n}, lcm{n};
pthread_mutex_t lcx{n} = PTHREAD_MUTEX_INITIALIZER;
"
    ));
    p.functions.push_str(&format!(
        "void *lcg{n}(void *arg)
{{
    struct lcc{n} *c = arg;
    c->probe(c->payload);
    free(c);
    return NULL;
}}

struct lct{n} *lcl{n}(void (*probe)(void *), void *payload)
{{
    struct lcc{n} *c = malloc(sizeof *c);
    struct lct{n} *t = malloc(sizeof *t);
    if (c == NULL || t == NULL)
        abort();
    c->probe = probe;
    c->payload = payload;
    if (pthread_create(&t->id, NULL, lcg{n}, c) != 0)
        abort();
    return t;
}}

void lcj{n}(struct lct{n} *t)
{{
    pthread_join(t->id, NULL);
    free(t);
}}

void lca{n}(void *arg)
{{
    (void)arg;
    for (unsigned i = 0; i < {it}u; i++)
        lco{n} += i;
}}

void lcb{n}(void *arg)
{{
    (void)arg;
    for (unsigned i = 0; i < {it}u; i++) {{
"
    ));
    for line in maybe_locked(locked, &format!("&lcx{n}"), format!("lcm{n} += i;")) {
        p.functions.push_str(&format!("        {line}\n"));
    }
    p.functions.push_str("    }\n}\n\n");
    // The once-routine's handles, in variables or in the elements of an array.
    let (x, y) = if elements {
        p.decls.push(format!("struct lct{n} *lca{n}e[2];"));
        (format!("lca{n}e[0]"), format!("lca{n}e[1]"))
    } else {
        p.decls.push(format!("struct lct{n} *lca{n}x;"));
        if twice {
            p.decls.push(format!("struct lct{n} *lca{n}y;"));
        }
        (format!("lca{n}x"), format!("lca{n}y"))
    };
    p.decls.push(format!("struct lct{n} *lcb{n}t[2];"));
    p.start.push(format!("{x} = lcl{n}(lca{n}, NULL);"));
    if twice {
        p.start.push(format!("{y} = lcl{n}(lca{n}, NULL);"));
    }
    p.start.push("for (int k = 0; k < 2; k++)".into());
    p.start
        .push(format!("    lcb{n}t[k] = lcl{n}(lcb{n}, NULL);"));
    let read = format!("printf(\"%u\\n\", lco{n});");
    if early {
        p.stop.push(read.clone());
    }
    p.stop.push(format!("lcj{n}({x});"));
    if twice {
        p.stop.push(format!("lcj{n}({y});"));
    }
    p.stop.push("for (int k = 0; k < 2; k++)".into());
    p.stop.push(format!("    lcj{n}(lcb{n}t[k]);"));
    if !early {
        p.stop.push(read);
    }
    p.stop.push(format!("printf(\"%u\\n\", lcm{n});"));
    p
}

fn gates(n: usize, wrong: bool, renew: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "struct gt{n} {{ pthread_mutex_t mu; unsigned uses; }};
struct gs{n} {{ struct gt{n} *have; unsigned count; }};
struct gs{n} gs{n}[2];
"
    ));
    p.functions.push_str(&format!(
        "struct gt{n} *gtn{n}(void)
{{
    struct gt{n} *g = malloc(sizeof *g);
    if (g == NULL)
        abort();
    pthread_mutex_init(&g->mu, NULL);
    g->uses = 0;
    return g;
}}

void gth{n}(struct gt{n} *g) {{ pthread_mutex_lock(&g->mu); }}

void gtl{n}(struct gt{n} *g) {{ pthread_mutex_unlock(&g->mu); }}

void gta{n}(struct gs{n} *s, unsigned v)
{{
    gth{n}(s->have);
    s->count += v;
    s->have->uses += 1;
    gtl{n}(s->have);
}}

"
    ));
    let mut body = vec![format!("gta{n}(&gs{n}[id], i);")];
    if wrong {
        body.extend([
            "if (id == 1) {".to_string(),
            format!("    gth{n}(gs{n}[1].have);"),
            format!("    gs{n}[0].count += 1;"),
            format!("    gtl{n}(gs{n}[1].have);"),
            "}".to_string(),
        ]);
    }
    p.functions += &thread_fn(
        &format!("gtw{n}"),
        &["long id = (long)arg;".into()],
        it,
        &body,
        &["return NULL;"],
    );
    p.decls.push(format!("pthread_t gtt{n}[2];"));
    p.start.push("for (int k = 0; k < 2; k++)".into());
    p.start.push(format!("    gs{n}[k].have = gtn{n}();"));
    p.start.push("for (long k = 0; k < 2; k++)".into());
    p.start.extend(
        create(&format!("&gtt{n}[k]"), &format!("gtw{n}"), "(void *)k").map(|l| format!("    {l}")),
    );
    p.stop.push("for (int k = 0; k < 2; k++)".into());
    p.stop.push(format!("    pthread_join(gtt{n}[k], NULL);"));
    if renew {
        p.stop.push(format!("gs{n}[0].have = gtn{n}();"));
        p.stop.push(format!("gta{n}(&gs{n}[0], 1);"));
    }
    p.stop.push(format!(
        "printf(\"%u %u\\n\", gs{n}[0].count, gs{n}[1].count);"
    ));
    p
}

fn helpers(n: usize, early: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!("unsigned ahd{n}[3];\n"));
    p.functions += &thread_fn(
        &format!("ahw{n}"),
        &["long id = (long)arg;".into()],
        it,
        &[format!("ahd{n}[id] += i;")],
        &["return NULL;"],
    );
    p.functions.push_str(&format!(
        "void ahs{n}(pthread_t *t, int n)
{{
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, ahw{n}, (void *)(long)i) != 0)
            abort();
}}

void ahj{n}(pthread_t *t, int n)
{{
    for (int j = 0; j < n; j++)
        pthread_join(t[j], NULL);
}}

"
    ));
    p.decls.push(format!("pthread_t aht{n}[3];"));
    p.start.push(format!("ahs{n}(aht{n}, 3);"));
    let read = [
        "for (int k = 0; k < 3; k++)".to_string(),
        format!("    printf(\"%u\\n\", ahd{n}[k]);"),
    ];
    if early {
        p.stop.extend(read.clone());
    }
    p.stop.push(format!("ahj{n}(aht{n}, 3);"));
    if !early {
        p.stop.extend(read);
    }
    p
}

fn states(n: usize, early: bool, extra: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t smm{n} = PTHREAD_MUTEX_INITIALIZER;\n\
         pthread_cond_t smc{n} = PTHREAD_COND_INITIALIZER;\n\
         int sms{n};\nunsigned smd{n};\nunsigned smx{n};\n"
    ));
    let store = |state: u8| {
        [
            format!("pthread_mutex_lock(&smm{n});"),
            format!("sms{n} = {state};"),
            format!("pthread_cond_broadcast(&smc{n});"),
            format!("pthread_mutex_unlock(&smm{n});"),
        ]
    };
    let work = [
        format!("for (unsigned k = 0; k < {it}; k++)"),
        format!("    smd{n} += k;"),
    ];
    let mut body = store(1).to_vec();
    if !early {
        body.extend(work.clone());
    }
    body.extend(store(2));
    if extra {
        body.push(format!("smx{n} += 1;"));
        body.extend(store(3));
    }
    if early {
        body.extend(work);
    }
    let last = if extra { 3 } else { 2 };
    p.functions
        .push_str(&format!("void *smp{n}(void *arg)\n{{\n    (void)arg;\n"));
    for line in &body {
        p.functions.push_str(&format!("    {line}\n"));
    }
    p.functions.push_str("    return NULL;\n}\n\n");
    p.decls.push(format!("pthread_t smt{n};"));
    p.start
        .extend(create(&format!("&smt{n}"), &format!("smp{n}"), "NULL"));
    p.stop.push(format!("pthread_mutex_lock(&smm{n});"));
    p.stop.push(format!("while (sms{n} != {last})"));
    p.stop
        .push(format!("    pthread_cond_wait(&smc{n}, &smm{n});"));
    p.stop.push(format!("pthread_mutex_unlock(&smm{n});"));
    p.stop.push(format!("smd{n} += 1;"));
    p.stop.push(format!("smx{n} += 1;"));
    p.stop.push(format!("pthread_join(smt{n}, NULL);"));
    p.stop.push(format!("sms{n} = 0;"));
    p
}

fn methods(n: usize, table: bool, skip: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t mtm{n} = PTHREAD_MUTEX_INITIALIZER;\n\
         unsigned mtd{n};\nunsigned mtr{n};\npthread_t mtj{n};\n"
    ));
    p.functions.push_str(&format!(
        "int mtt{n}(pthread_mutex_t *m)
{{
    return pthread_mutex_lock(m);
}}

int mtu{n}(pthread_mutex_t *m)
{{
    return pthread_mutex_unlock(m);
}}

int mtz{n}(pthread_mutex_t *m)
{{
    (void)m;
    return 0;
}}

void mtq{n}(void)
{{
    pthread_join(mtj{n}, NULL);
}}

void mtn{n}(void)
{{
}}

void (*mtf{n})(void) = mtq{n};

"
    ));
    let (enter, leave) = if table {
        p.functions.push_str(&format!(
            "struct mto{n} {{
    int (*enter)(pthread_mutex_t *);
    int (*leave)(pthread_mutex_t *);
}};

struct mto{n} mta{n} = {{ mtt{n}, mtu{n} }};

"
        ));
        (format!("mta{n}.enter"), format!("mta{n}.leave"))
    } else {
        p.functions.push_str(&format!(
            "int (*mte{n})(pthread_mutex_t *) = mtt{n};
int (*mtl{n})(pthread_mutex_t *) = mtu{n};

"
        ));
        (format!("mte{n}"), format!("mtl{n}"))
    };
    let body = [
        format!("{enter}(&mtm{n});"),
        format!("mtd{n}++;"),
        format!("{leave}(&mtm{n});"),
    ];
    let end = ["return arg;"];
    p.functions += &thread_fn(&format!("mtw{n}"), &[], it, &body, &end);
    p.functions += &thread_fn(&format!("mtx{n}"), &[], it, &[format!("mtr{n}++;")], &end);
    p.decls.push(format!("pthread_t mtwt{n}[2];"));
    p.start.push(format!(
        "if (getpid() {} 0) {{",
        if skip { ">" } else { "<" }
    ));
    p.start.push(format!("    {enter} = mtz{n};"));
    p.start.push(format!("    {leave} = mtz{n};"));
    p.start.push(format!("    mtf{n} = mtn{n};"));
    p.start.push("}".into());
    p.start
        .extend(create(&format!("&mtj{n}"), &format!("mtx{n}"), "NULL"));
    for k in 0..2 {
        p.start.extend(create(
            &format!("&mtwt{n}[{k}]"),
            &format!("mtw{n}"),
            "NULL",
        ));
    }
    p.stop.push(format!("mtf{n}();"));
    p.stop.push(format!("mtr{n}++;"));
    p.stop.push("for (int k = 0; k < 2; k++)".into());
    p.stop.push(format!("    pthread_join(mtwt{n}[k], NULL);"));
    p.stop.push(format!("if (mtf{n} == mtn{n})"));
    p.stop.push(format!("    pthread_join(mtj{n}, NULL);"));
    p.stop
        .push(format!("printf(\"%u %u\\n\", mtd{n}, mtr{n});"));
    p
}

fn thread_local(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::ThreadLocal {
        c11,
        threads,
        main_writes,
        share,
        owner_thread,
        iterations: it,
    } = *idiom
    else {
        unreachable!("a thread-local idiom")
    };
    let mut p = Parts::default();
    let keyword = if c11 { "_Thread_local" } else { "__thread" };
    p.globals.push_str(&format!("{keyword} unsigned tl{n};\n"));
    if share == Share::Global {
        p.globals.push_str(&format!("unsigned *tlp{n};\n"));
    }
    let void_arg = ["(void)arg;".to_string()];
    let by_name = [format!("tl{n} += i;")];
    if threads > 0 {
        p.functions += &thread_fn(
            &format!("tlw{n}"),
            &void_arg,
            it,
            &by_name,
            &["return NULL;"],
        );
        p.decls.push(format!("pthread_t tlt{n}[{threads}];"));
        p.start
            .push(format!("for (unsigned k = 0; k < {threads}u; k++) {{"));
        p.start.extend(
            create(&format!("&tlt{n}[k]"), &format!("tlw{n}"), "NULL").map(|l| format!("    {l}")),
        );
        p.start.push("}".into());
        p.stop
            .push(format!("for (unsigned k = 0; k < {threads}u; k++)"));
        p.stop.push(format!("    pthread_join(tlt{n}[k], NULL);"));
    }
    if share != Share::No {
        let (prologue, arg) = match share {
            Share::Arg => (vec!["unsigned *p = arg;".to_string()], format!("&tl{n}")),
            _ => (
                vec![
                    "unsigned *p = tlp{n};".replace("{n}", &n.to_string()),
                    void_arg[0].clone(),
                ],
                "NULL".to_string(),
            ),
        };
        let child = ["*p += i;".to_string()];
        p.functions += &thread_fn(&format!("tlc{n}"), &prologue, it, &child, &["return NULL;"]);
        let mut hand = Vec::new();
        if share == Share::Global {
            hand.push(format!("tlp{n} = &tl{n};"));
        }
        if owner_thread {
            hand.push("pthread_t c;".into());
            hand.push("(void)arg;".into());
            hand.extend(create("&c", &format!("tlc{n}"), &arg));
            let owner = [format!("tl{n}++;")];
            let end = ["pthread_join(c, NULL);", "return NULL;"];
            p.functions += &thread_fn(&format!("tlo{n}"), &hand, it, &owner, &end);
            p.decls.push(format!("pthread_t tlot{n};"));
            p.start
                .extend(create(&format!("&tlot{n}"), &format!("tlo{n}"), "NULL"));
            p.stop.push(format!("pthread_join(tlot{n}, NULL);"));
        } else {
            p.decls.push(format!("pthread_t tlct{n};"));
            p.start.extend(hand);
            p.start
                .extend(create(&format!("&tlct{n}"), &format!("tlc{n}"), &arg));
            p.stop.push(format!("pthread_join(tlct{n}, NULL);"));
        }
    }
    if main_writes {
        p.start.extend(main_loop(it, &by_name));
    }
    p
}

fn stripe(n: usize, offset: u8, a_js: &[u8], b_j: u8, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t sm{n}[4] = {{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,\n                             PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER }};\nunsigned sd{n}[4];\n"
    ));
    let j = ["unsigned j = (unsigned)(uintptr_t)arg;".to_string()];
    let a_lock = if offset == 0 {
        format!("&sm{n}[j]")
    } else {
        format!("&sm{n}[j + {offset}u]")
    };
    let a_body = maybe_locked(true, &a_lock, format!("sd{n}[j] += i;"));
    let b_body = maybe_locked(true, &format!("&sm{n}[j]"), format!("sd{n}[j]++;"));
    p.functions += &thread_fn(&format!("sa{n}"), &j, it, &a_body, &["return NULL;"]);
    p.functions += &thread_fn(&format!("sb{n}"), &j, it, &b_body, &["return NULL;"]);
    p.decls.push(format!("pthread_t sat{n}[{}];", a_js.len()));
    p.decls.push(format!("pthread_t sbt{n};"));
    for (k, a) in a_js.iter().enumerate() {
        let arg = format!("(void *)(uintptr_t){a}u");
        p.start
            .extend(create(&format!("&sat{n}[{k}]"), &format!("sa{n}"), &arg));
        p.stop.push(format!("pthread_join(sat{n}[{k}], NULL);"));
    }
    let arg = format!("(void *)(uintptr_t){b_j}u");
    p.start
        .extend(create(&format!("&sbt{n}"), &format!("sb{n}"), &arg));
    p.stop.push(format!("pthread_join(sbt{n}, NULL);"));
    p
}

fn ops_callback(
    n: usize,
    static_table: bool,
    cb_locked: bool,
    main_locked: bool,
    it: u32,
) -> Parts {
    let mut p = Parts::default();
    let storage = if static_table { "static " } else { "" };
    p.globals.push_str(&format!(
        "struct ops {{\n    void (*fn)(unsigned);\n}};\n\
         /* Defined in lib.c: keeps the table, and calls its fn from a thread of its own. */\n\
         void lib_register(struct ops *t);\nvoid lib_start(void);\nvoid lib_stop(void);\n\
         pthread_mutex_t cbm{n} = PTHREAD_MUTEX_INITIALIZER;\nunsigned cbd{n};\n\
         void cb{n}(unsigned v);\n{storage}struct ops tbl{n} = {{ .fn = cb{n} }};\n"
    ));
    p.functions
        .push_str(&format!("void cb{n}(unsigned v)\n{{\n"));
    for l in maybe_locked(cb_locked, &format!("&cbm{n}"), format!("cbd{n} += v;")) {
        p.functions.push_str(&format!("    {l}\n"));
    }
    p.functions.push_str("}\n\n");
    p.start.push(format!("lib_register(&tbl{n});"));
    p.start.push("lib_start();".into());
    let write = maybe_locked(main_locked, &format!("&cbm{n}"), format!("cbd{n} = i;"));
    p.start.extend(main_loop(it, &write));
    p.stop.push("lib_stop();".into());
    p.lib = "\
struct ops {
    void (*fn)(unsigned);
};

static struct ops *lib_ops;
static pthread_t lib_thread;

static void *lib_run(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 100u; i++)
        lib_ops->fn(i);
    return NULL;
}

void lib_register(struct ops *t)
{
    lib_ops = t;
}

void lib_start(void)
{
    if (pthread_create(&lib_thread, NULL, lib_run, NULL) != 0)
        abort();
}

void lib_stop(void)
{
    pthread_join(lib_thread, NULL);
}
"
    .into();
    p
}

fn unknown_global(n: usize, reads_other: bool, locked: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(
        "struct sdata {\n    unsigned a;\n    unsigned b;\n};\n\
         /* Defined in lib.c: returns &us. */\nstruct sdata *lib_get_s(void);\n\
         struct sdata us;\npthread_mutex_t usm = PTHREAD_MUTEX_INITIALIZER;\n",
    );
    let field = if reads_other { "b" } else { "a" };
    let read = maybe_locked(locked, "&usm", format!("sum += us.{field};"));
    let prologue = ["(void)arg;".to_string(), "unsigned sum = 0;".to_string()];
    let end = ["return (void *)(uintptr_t)sum;"];
    p.functions += &thread_fn(&format!("usr{n}"), &prologue, it, &read, &end);
    p.decls.push(format!("pthread_t ust{n};"));
    p.start
        .extend(create(&format!("&ust{n}"), &format!("usr{n}"), "NULL"));
    let write = maybe_locked(locked, "&usm", "lib_get_s()->a = i;".to_string());
    p.start.extend(main_loop(it, &write));
    p.stop.push(format!("pthread_join(ust{n}, NULL);"));
    p.lib = "\
struct sdata {
    unsigned a;
    unsigned b;
};

extern struct sdata us;

struct sdata *lib_get_s(void)
{
    return &us;
}
"
    .into();
    p
}

fn lock_order(
    n: usize,
    conditional: bool,
    wrapped: bool,
    taken: bool,
    inverted: bool,
    it: u32,
) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t dla{n} = PTHREAD_MUTEX_INITIALIZER;\n\
         pthread_mutex_t dlb{n} = PTHREAD_MUTEX_INITIALIZER;\n\
         unsigned dld{n};\nint dlc{n};\nint dlf{n};\n"
    ));
    let (a, b) = (format!("&dla{n}"), format!("&dlb{n}"));
    let mut x = Vec::new();
    let wrapped_arg = if conditional {
        format!("dlc{n} ? {a} : NULL")
    } else {
        a.clone()
    };
    if wrapped {
        p.functions += &format!(
            "static void dlw{n}(pthread_mutex_t *m)\n{{\n    if (m)\n        \
             pthread_mutex_lock(m);\n}}\n\n\
             static void dlu{n}(pthread_mutex_t *m)\n{{\n    if (m)\n        \
             pthread_mutex_unlock(m);\n}}\n\n"
        );
        x.push(format!("dlw{n}({wrapped_arg});"));
    } else if conditional {
        x.push(format!("if (dlc{n})"));
        x.push(format!("    pthread_mutex_lock({a});"));
    } else {
        x.push(format!("pthread_mutex_lock({a});"));
    }
    x.push(format!("pthread_mutex_lock({b});"));
    x.push(format!("dld{n}++;"));
    x.push(format!("pthread_mutex_unlock({b});"));
    if wrapped {
        x.push(format!("dlu{n}({wrapped_arg});"));
    } else if conditional {
        x.push(format!("if (dlc{n})"));
        x.push(format!("    pthread_mutex_unlock({a});"));
    } else {
        x.push(format!("pthread_mutex_unlock({a});"));
    }
    let done = format!("__atomic_store_n(&dlf{n}, 1, __ATOMIC_RELEASE);");
    let end = [done.as_str(), "return NULL;"];
    p.functions += &thread_fn(&format!("dlx{n}"), &["(void)arg;".into()], it, &x, &end);
    let (first, second) = if inverted { (&b, &a) } else { (&a, &b) };
    let y = vec![
        format!("pthread_mutex_lock({first});"),
        format!("pthread_mutex_lock({second});"),
        format!("dld{n}++;"),
        format!("pthread_mutex_unlock({second});"),
        format!("pthread_mutex_unlock({first});"),
    ];
    let wait = [
        "(void)arg;".to_string(),
        format!("while (!__atomic_load_n(&dlf{n}, __ATOMIC_ACQUIRE))"),
        "    ;".to_string(),
    ];
    p.functions += &thread_fn(&format!("dly{n}"), &wait, it, &y, &["return NULL;"]);
    p.decls.push(format!("pthread_t dltx{n};"));
    p.decls.push(format!("pthread_t dlty{n};"));
    p.start.push(format!("dlc{n} = {};", u8::from(taken)));
    p.start
        .extend(create(&format!("&dltx{n}"), &format!("dlx{n}"), "NULL"));
    p.start
        .extend(create(&format!("&dlty{n}"), &format!("dly{n}"), "NULL"));
    p.stop.push(format!("pthread_join(dltx{n}, NULL);"));
    p.stop.push(format!("pthread_join(dlty{n}, NULL);"));
    p
}

fn counter_join(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::CounterJoin {
        workers,
        locked,
        late,
        unlocked_wait,
        short,
        semaphore,
        in_function,
        iterations: it,
    } = *idiom
    else {
        unreachable!("a counter join idiom")
    };
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t cjm{n} = PTHREAD_MUTEX_INITIALIZER;\n\
         pthread_cond_t cjv{n} = PTHREAD_COND_INITIALIZER;\n\
         int cjc{n};\nunsigned cjd{n};\nunsigned cje{n};\nunsigned cjr{n};\nsem_t cjs{n};\n"
    ));
    let m = format!("&cjm{n}");
    let body = maybe_locked(locked, &m, format!("cjd{n} += i;"));
    let mut end = if semaphore {
        vec![format!("sem_post(&cjs{n});")]
    } else {
        vec![
            format!("pthread_mutex_lock({m});"),
            format!("cjc{n}--;"),
            format!("pthread_mutex_unlock({m});"),
            format!("pthread_cond_broadcast(&cjv{n});"),
        ]
    };
    if late {
        end.push(format!("cje{n} = 1;"));
    }
    end.push("return NULL;".into());
    let end: Vec<&str> = end.iter().map(String::as_str).collect();
    p.functions += &thread_fn(&format!("cjw{n}"), &["(void)arg;".into()], it, &body, &end);
    p.decls.push(format!("pthread_t cjt{n};"));
    let count = u32::from(workers) - u32::from(short);
    if semaphore {
        p.start.push(format!("sem_init(&cjs{n}, 0, 0);"));
    } else {
        p.start.push(format!("cjc{n} = {count};"));
    }
    p.start
        .push(format!("for (unsigned k = 0; k < {workers}u; k++) {{"));
    p.start.extend(
        create(&format!("&cjt{n}"), &format!("cjw{n}"), "NULL").map(|l| format!("    {l}")),
    );
    p.start.push(format!("    pthread_detach(cjt{n});"));
    p.start.push("}".into());
    if semaphore {
        p.stop.push(format!("for (int k = 0; k < {count}; k++)"));
        p.stop.push(format!("    sem_wait(&cjs{n});"));
    } else if unlocked_wait {
        p.stop.push(format!("while (cjc{n} > 0)"));
        p.stop.push("    usleep(100);".into());
    } else {
        p.stop.push(format!("pthread_mutex_lock({m});"));
        p.stop.push(format!("while (cjc{n} > 0)"));
        p.stop.push(format!("    pthread_cond_wait(&cjv{n}, {m});"));
        p.stop.push(format!("pthread_mutex_unlock({m});"));
    }
    if in_function {
        // The start and the wait in a function `main` calls once, the reads after it returns.
        let body: Vec<String> = p
            .decls
            .drain(..)
            .chain(p.start.drain(..))
            .chain(p.stop.drain(..))
            .collect();
        p.functions += &format!("static void cjf{n}(void) {{\n");
        for line in body {
            p.functions += &format!("    {line}\n");
        }
        p.functions += "}\n";
        p.start.push(format!("cjf{n}();"));
    }
    p.stop.push(format!("cjr{n} = cjd{n} + cje{n};"));
    p
}

fn heap_handles(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::HeapHandles {
        wrappers,
        global_handles,
        realloc_wrapper,
        locked,
        a_first,
        iterations: it,
    } = *idiom
    else {
        unreachable!("a heap handles idiom")
    };
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "struct hho{n} {{ pthread_t id; struct hho{n} *next; }};
         struct hhr{n} {{ unsigned count; unsigned spare; }};
         pthread_mutex_t hhm{n} = PTHREAD_MUTEX_INITIALIZER;
         struct hhr{n} *hhra{n}, *hhrb{n};
"
    ));
    let make = if realloc_wrapper {
        p.functions.push_str(&format!(
            "void *hhg{n}(void *ptr, size_t size)
{{
    ptr = realloc(ptr, size);
                 if (ptr == NULL)
        abort();
    return ptr;
}}

"
        ));
        format!("hhg{n}(NULL, sizeof(struct hhr{n}))")
    } else {
        p.globals
            .push_str(&format!("void *(*hhf{n})(size_t) = malloc;\n"));
        format!("hhf{n}(sizeof(struct hhr{n}))")
    };
    if wrappers {
        p.globals.push_str(&format!(
            "pthread_mutex_t hhlm{n} = PTHREAD_MUTEX_INITIALIZER;
             struct hho{n} *hhall{n};
"
        ));
        p.functions.push_str(&format!(
            "struct hho{n} *hhl{n}(void *(*fn)(void *))
{{
    struct hho{n} *h = malloc(sizeof *h);
    if (h == NULL)
        abort();
    if (pthread_create(&h->id, NULL, fn, NULL) != 0)
        abort();
    pthread_mutex_lock(&hhlm{n});
    h->next = hhall{n};
    hhall{n} = h;
    pthread_mutex_unlock(&hhlm{n});
    return h;
}}

void hhj{n}(struct hho{n} *h)
{{
    pthread_join(h->id, NULL);
    pthread_mutex_lock(&hhlm{n});
    struct hho{n} **link = &hhall{n};
    while (*link != h)
        link = &(*link)->next;
    *link = h->next;
    pthread_mutex_unlock(&hhlm{n});
    free(h);
}}

"
        ));
    }
    let m = format!("&hhm{n}");
    for (t, r) in [("a", "hhra"), ("b", "hhrb")] {
        let body = maybe_locked(locked, &m, format!("{r}{n}->count += i;"));
        p.functions += &thread_fn(
            &format!("hh{t}{n}"),
            &["(void)arg;".into()],
            it,
            &body,
            &["return NULL;"],
        );
    }
    let handles = format!("struct hho{n} *hhpa{n}, *hhpb{n};");
    if global_handles {
        p.globals.push_str(&format!("{handles}\n"));
    } else {
        p.decls.push(handles);
    }
    p.start.push(format!("hhra{n} = {make};"));
    p.start.push(format!("hhrb{n} = {make};"));
    p.start
        .push(format!("if (hhra{n} == NULL || hhrb{n} == NULL)"));
    p.start.push("    abort();".into());
    p.start.push(format!("hhra{n}->count = 0;"));
    p.start.push(format!("hhrb{n}->count = 0;"));
    let (first, second) = if a_first { ("a", "b") } else { ("b", "a") };
    if wrappers {
        p.start.push(format!("hhpa{n} = hhl{n}(hha{n});"));
        p.start.push(format!("hhpb{n} = hhl{n}(hhb{n});"));
        p.stop.push(format!("hhj{n}(hhp{first}{n});"));
    } else {
        p.start
            .push(format!("hhpa{n} = malloc(sizeof(struct hho{n}));"));
        p.start
            .push(format!("hhpb{n} = malloc(sizeof(struct hho{n}));"));
        p.start
            .push(format!("if (hhpa{n} == NULL || hhpb{n} == NULL)"));
        p.start.push("    abort();".into());
        p.start
            .extend(create(&format!("&hhpa{n}->id"), &format!("hha{n}"), "NULL"));
        p.start
            .extend(create(&format!("&hhpb{n}->id"), &format!("hhb{n}"), "NULL"));
        p.stop
            .push(format!("pthread_join(hhp{first}{n}->id, NULL);"));
    }
    for r in ["hhra", "hhrb"] {
        p.stop
            .extend(maybe_locked(locked, &m, format!("{r}{n}->count += 1;")));
    }
    if wrappers {
        p.stop.push(format!("hhj{n}(hhp{second}{n});"));
        p.stop.push(format!("hhpa{n} = NULL;"));
        p.stop.push(format!("hhpb{n} = NULL;"));
        handle_array(&mut p, n, locked, a_first, it);
    } else {
        p.stop
            .push(format!("pthread_join(hhp{second}{n}->id, NULL);"));
        p.stop.push(format!("free(hhpa{n});"));
        p.stop.push(format!("free(hhpb{n});"));
    }
    p
}

/// The heap-handles idiom's handles in a local array: three workers `hhwN` adding to `hhqN`
/// (under `hhmN` when `locked`) launched by a create loop into `hhsN[k]` and finished by a
/// join loop over the same range before `main` adds to `hhqN` — or over one less when
/// `short`, the last worker finished after `main`'s update.
fn handle_array(p: &mut Parts, n: usize, locked: bool, short: bool, it: u32) {
    let m = format!("&hhm{n}");
    p.globals.push_str(&format!("unsigned hhq{n};\n"));
    let body = maybe_locked(locked, &m, format!("hhq{n} += i;"));
    p.functions += &thread_fn(
        &format!("hhw{n}"),
        &["(void)arg;".into()],
        it,
        &body,
        &["return NULL;"],
    );
    p.decls.push(format!("struct hho{n} *hhs{n}[3];"));
    p.start.push("for (int k = 0; k < 3; k++)".to_string());
    p.start.push(format!("    hhs{n}[k] = hhl{n}(hhw{n});"));
    let bound = if short { 2 } else { 3 };
    p.stop.push(format!("for (int k = 0; k < {bound}; k++)"));
    p.stop.push(format!("    hhj{n}(hhs{n}[k]);"));
    p.stop
        .extend(maybe_locked(locked, &m, format!("hhq{n} += 1;")));
    if short {
        p.stop.push(format!("hhj{n}(hhs{n}[2]);"));
    }
}

fn join_tree(n: usize, size: u8, locked: bool, detach_right: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t jtm{n} = PTHREAD_MUTEX_INITIALIZER;
         unsigned jtc{n};
"
    ));
    let right_end = if detach_right {
        "    if (has_r)\n        pthread_detach(r);\n".to_string()
    } else {
        String::new()
    };
    let right_join = if detach_right {
        String::new()
    } else {
        "    if (has_r)\n        pthread_join(r, NULL);\n".to_string()
    };
    let body = maybe_locked(locked, &format!("&jtm{n}"), format!("jtc{n} += 1;"))
        .iter()
        .map(|l| format!("        {l}\n"))
        .collect::<String>();
    p.functions.push_str(&format!(
        "void *jtn{n}(void *arg)
{{
    long i = (long)arg;
    pthread_t l, r;
    int has_l = 2 * i + 1 < {size}, has_r = 2 * i + 2 < {size};
    if (has_l)
        pthread_create(&l, NULL, jtn{n}, (void *)(2 * i + 1));
    if (has_r)
        pthread_create(&r, NULL, jtn{n}, (void *)(2 * i + 2));
{right_end}    for (unsigned k = 0; k < {it}; k++) {{
{body}    }}
    if (has_l)
        pthread_join(l, NULL);
{right_join}    return NULL;
}}

"
    ));
    p.decls.push(format!("pthread_t jtr{n};"));
    p.start
        .extend(create(&format!("&jtr{n}"), &format!("jtn{n}"), "(void *)0"));
    p.stop.push(format!("pthread_join(jtr{n}, NULL);"));
    p.stop.push(format!("jtc{n} += 1;"));
    p
}

fn handshake(n: usize, early: bool, semaphore: bool, from_main: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    let (signal, wait) = if semaphore {
        p.globals
            .push_str(&format!("sem_t hss{n};\nunsigned hsd{n};\n"));
        (
            vec![format!("sem_post(&hss{n});")],
            vec![format!("sem_wait(&hss{n});")],
        )
    } else {
        p.globals.push_str(&format!(
            "pthread_mutex_t hsm{n} = PTHREAD_MUTEX_INITIALIZER;
         pthread_cond_t hsc{n} = PTHREAD_COND_INITIALIZER;
         int hsf{n};
         unsigned hsd{n};
"
        ));
        (
            vec![
                format!("pthread_mutex_lock(&hsm{n});"),
                format!("hsf{n} = 1;"),
                format!("pthread_cond_broadcast(&hsc{n});"),
                format!("pthread_mutex_unlock(&hsm{n});"),
            ],
            vec![
                format!("pthread_mutex_lock(&hsm{n});"),
                format!("while (!hsf{n})"),
                format!("    pthread_cond_wait(&hsc{n}, &hsm{n});"),
                format!("pthread_mutex_unlock(&hsm{n});"),
            ],
        )
    };
    let work = vec![
        format!("for (unsigned k = 0; k < {it}; k++)"),
        format!("    hsd{n} += k;"),
    ];
    let mut signaller = if early {
        [signal, work].concat()
    } else {
        [work, signal].concat()
    };
    let mut waiter = wait;
    waiter.push(format!("hsd{n} += 1;"));
    // The thread is the producer, or (`from_main`) the waiter of `main`'s signal.
    let (in_thread, in_main) = if from_main {
        (waiter, &mut signaller)
    } else {
        (signaller, &mut waiter)
    };
    p.functions
        .push_str(&format!("void *hsp{n}(void *arg)\n{{\n    (void)arg;\n"));
    for line in &in_thread {
        p.functions.push_str(&format!("    {line}\n"));
    }
    p.functions.push_str("    return NULL;\n}\n\n");
    p.decls.push(format!("pthread_t hst{n};"));
    if semaphore {
        p.start.push(format!("sem_init(&hss{n}, 0, 0);"));
    }
    p.start
        .extend(create(&format!("&hst{n}"), &format!("hsp{n}"), "NULL"));
    p.stop.append(in_main);
    p.stop.push(format!("pthread_join(hst{n}, NULL);"));
    p
}

fn turns(n: usize, takers: u8, late: bool, helpers: bool, observer: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "pthread_mutex_t tnm{n} = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t tnc{n} = PTHREAD_COND_INITIALIZER;
int tnt{n};
unsigned tnd{n}, tnl{n};
"
    ));
    let store = |v: u32| -> Vec<String> {
        if helpers {
            return vec![format!("tns{n}({v});")];
        }
        vec![
            format!("pthread_mutex_lock(&tnm{n});"),
            format!("tnt{n} = {v};"),
            format!("pthread_cond_broadcast(&tnc{n});"),
            format!("pthread_mutex_unlock(&tnm{n});"),
        ]
    };
    let main_wait: Vec<String> = if helpers {
        p.functions.push_str(&format!(
            "void tnw{n}(int me)
{{
    pthread_mutex_lock(&tnm{n});
    while (tnt{n} != me)
        pthread_cond_wait(&tnc{n}, &tnm{n});
    pthread_mutex_unlock(&tnm{n});
}}

void tns{n}(int to)
{{
    pthread_mutex_lock(&tnm{n});
    tnt{n} = to;
    pthread_cond_broadcast(&tnc{n});
    pthread_mutex_unlock(&tnm{n});
}}

"
        ));
        vec![format!("tnw{n}(0);")]
    } else {
        vec![
            format!("pthread_mutex_lock(&tnm{n});"),
            format!("while (tnt{n} != 0)"),
            format!("    pthread_cond_wait(&tnc{n}, &tnm{n});"),
            format!("pthread_mutex_unlock(&tnm{n});"),
        ]
    };
    let wait = |test: &str| {
        [
            format!("pthread_mutex_lock(&tnm{n});"),
            format!("while ({test})"),
            format!("    pthread_cond_wait(&tnc{n}, &tnm{n});"),
        ]
    };
    let mut taker = vec!["for (;;) {".to_string()];
    taker.extend(wait(&format!("tnt{n} == 0")));
    taker.extend([
        format!("if (tnt{n} == 2) {{"),
        format!("pthread_mutex_unlock(&tnm{n});"),
        "break;".to_string(),
        "}".to_string(),
        format!("pthread_mutex_unlock(&tnm{n});"),
        format!("tnd{n} += 1;"),
        format!("tnl{n} += 1;"),
        // Two takers may both be in a turn of 1: the later one must not undo `main`'s 2.
        format!("pthread_mutex_lock(&tnm{n});"),
        format!("if (tnt{n} == 1)"),
        format!("    tnt{n} = 0;"),
        format!("pthread_cond_broadcast(&tnc{n});"),
        format!("pthread_mutex_unlock(&tnm{n});"),
        "}".to_string(),
    ]);
    p.functions
        .push_str(&format!("void *tnp{n}(void *arg)\n{{\n    (void)arg;\n"));
    let mut depth = 1;
    for line in &taker {
        if line.starts_with('}') {
            depth -= 1;
        }
        p.functions
            .push_str(&format!("{}{line}\n", "    ".repeat(depth)));
        if line.ends_with('{') {
            depth += 1;
        }
    }
    p.functions.push_str("    return NULL;\n}\n\n");
    p.decls.push(format!("pthread_t tnh{n}[2];"));
    if observer {
        p.globals.push_str(&format!("unsigned tno{n}_seen;\n"));
        p.functions.push_str(&format!(
            "void *tno{n}(void *arg)
{{
    (void)arg;
    pthread_mutex_lock(&tnm{n});
    while (tnt{n} == 1)
        pthread_cond_wait(&tnc{n}, &tnm{n});
    pthread_mutex_unlock(&tnm{n});
    tno{n}_seen = tnd{n};
    return NULL;
}}

"
        ));
        p.decls.push(format!("pthread_t tnq{n};"));
        p.start
            .extend(create(&format!("&tnq{n}"), &format!("tno{n}"), "NULL"));
    }
    if takers > 1 {
        p.start
            .push(format!("for (int i = 0; i < {takers}; i++) {{"));
        p.start.extend(
            create(&format!("&tnh{n}[i]"), &format!("tnp{n}"), "NULL").map(|l| format!("    {l}")),
        );
        p.start.push("}".to_string());
    } else {
        p.start
            .extend(create(&format!("&tnh{n}[0]"), &format!("tnp{n}"), "NULL"));
    }
    let rounds = it % 5 + 2;
    p.stop
        .push(format!("for (unsigned r = 0; r < {rounds}; r++) {{"));
    let mut turn: Vec<String> = main_wait.clone();
    turn.push(format!("tnd{n} += r;"));
    if !late {
        turn.push(format!("tnl{n} += r;"));
    }
    turn.extend(store(1));
    if late {
        turn.push(format!("tnl{n} += r;"));
    }
    p.stop.extend(turn.iter().map(|l| format!("    {l}")));
    p.stop.push("}".to_string());
    p.stop.extend(main_wait);
    p.stop.extend(store(2));
    p.stop.push(format!("for (int i = 0; i < {takers}; i++)"));
    p.stop.push(format!("    pthread_join(tnh{n}[i], NULL);"));
    if observer {
        p.stop.push(format!("pthread_join(tnq{n}, NULL);"));
    }
    p
}

/// The turns of [`turns`] with their value, mutex and condition moved into the members of one
/// global struct `tnbN`, a lock object; with `helpers`, the helpers are handed its address.
fn in_lock_object(n: usize, mut p: Parts, helpers: bool) -> Parts {
    let plain = format!(
        "pthread_mutex_t tnm{n} = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t tnc{n} = PTHREAD_COND_INITIALIZER;
int tnt{n};
"
    );
    let object = format!(
        "struct tnb{n}_s {{
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int value;
}} tnb{n} = {{PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0}};
"
    );
    p.globals = p.globals.replace(&plain, &object);
    if helpers {
        let start = p.functions.find(&format!("void tnw{n}(int me)"));
        let end = p.functions.find(&format!("void *tnp{n}(void *arg)"));
        if let (Some(start), Some(end)) = (start, end) {
            p.functions.replace_range(
                start..end,
                &format!(
                    "void tnw{n}(struct tnb{n}_s *b, int op, int me)
{{
    pthread_mutex_lock(&b->mutex);
    if (op == 0) {{
        while (b->value != me)
            pthread_cond_wait(&b->cond, &b->mutex);
    }} else {{
        while (b->value == me)
            pthread_cond_wait(&b->cond, &b->mutex);
    }}
    pthread_mutex_unlock(&b->mutex);
}}

void tns{n}(struct tnb{n}_s *b, int to)
{{
    pthread_mutex_lock(&b->mutex);
    b->value = to;
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->mutex);
}}

"
                ),
            );
        }
        let observer_wait = format!(
            "    pthread_mutex_lock(&tnm{n});
    while (tnt{n} == 1)
        pthread_cond_wait(&tnc{n}, &tnm{n});
    pthread_mutex_unlock(&tnm{n});
"
        );
        p.functions = p.functions.replace(
            &observer_wait,
            &format!(
                "    tnw{n}(&tnb{n}, 1, 1);
"
            ),
        );
    }
    let rename = |text: &str| {
        text.replace(&format!("tnm{n}"), &format!("tnb{n}.mutex"))
            .replace(&format!("tnc{n}"), &format!("tnb{n}.cond"))
            .replace(&format!("tnt{n}"), &format!("tnb{n}.value"))
    };
    // `main`'s calls of the helpers (only `main` calls them by name) hand the object over.
    let hand_over = |line: &String| {
        let line = rename(line);
        if !helpers {
            return line;
        }
        line.replace(&format!("tnw{n}(0);"), &format!("tnw{n}(&tnb{n}, 0, 0);"))
            .replace(&format!("tns{n}("), &format!("tns{n}(&tnb{n}, "))
    };
    p.functions = rename(&p.functions);
    p.start = p.start.iter().map(hand_over).collect();
    p.stop = p.stop.iter().map(hand_over).collect();
    p
}

/// The turns of [`in_lock_object`] with the object made on the heap by a constructor, before
/// any thread starts, and kept in the global pointer `tnbN`.
fn behind_a_pointer(n: usize, mut p: Parts) -> Parts {
    let object =
        format!("}} tnb{n} = {{PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0}};\n");
    p.globals = p.globals.replace(&object, &format!("}} *tnb{n};\n"));
    p.functions.insert_str(
        0,
        &format!(
            "struct tnb{n}_s *tnb{n}_new(void)
{{
    struct tnb{n}_s *b = malloc(sizeof *b);
    if (!b)
        abort();
    pthread_mutex_init(&b->mutex, NULL);
    pthread_cond_init(&b->cond, NULL);
    b->value = 0;
    return b;
}}

"
        ),
    );
    p.decls.push(format!("tnb{n} = tnb{n}_new();"));
    let rename = |text: &str| {
        text.replace(&format!("tnb{n}."), &format!("tnb{n}->"))
            .replace(&format!("(&tnb{n}, "), &format!("(tnb{n}, "))
    };
    p.functions = rename(&p.functions);
    p.start = p.start.iter().map(|l| rename(l)).collect();
    p.stop = p.stop.iter().map(|l| rename(l)).collect();
    p
}

fn pool(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::Pool {
        member_bound,
        short,
        locked,
        structs,
        iterations: it,
    } = *idiom
    else {
        unreachable!("a pool idiom")
    };
    let mut p = Parts::default();
    // The thread ids: a block of `pthread_t`, or of worker structs with the id in `tid`.
    let (element, tid) = if structs {
        (format!("struct plk{n}"), ".tid")
    } else {
        ("pthread_t".to_string(), "")
    };
    if structs {
        p.globals.push_str(&format!(
            "struct plp{n};
struct plk{n} {{
    pthread_t tid;
    struct plp{n} *pool;
}};
"
        ));
    }
    p.globals.push_str(&format!(
        "struct plp{n} {{
    pthread_mutex_t lock;
    {element} *threads;
    int size;
    unsigned done;
}};
pthread_mutex_t plm{n} = PTHREAD_MUTEX_INITIALIZER;
unsigned pld{n};
"
    ));
    let mut body = vec![
        "pthread_mutex_lock(&p->lock);".to_string(),
        "p->done += 1;".to_string(),
        "pthread_mutex_unlock(&p->lock);".to_string(),
    ];
    body.extend(maybe_locked(
        locked,
        &format!("&plm{n}"),
        format!("pld{n} += 1;"),
    ));
    let prologue = if structs {
        vec![
            format!("struct plk{n} *self = arg;"),
            format!("struct plp{n} *p = self->pool;"),
        ]
    } else {
        vec![format!("struct plp{n} *p = arg;")]
    };
    p.functions.push_str(&thread_fn(
        &format!("plw{n}"),
        &prologue,
        it,
        &body,
        &["return NULL;"],
    ));
    let bound = if member_bound { "p->size" } else { "n" };
    let (id, arg, owners) = if structs {
        (
            "&p->threads[i].tid",
            "&p->threads[i]",
            "    for (int k = 0; k < n; k++)\n        p->threads[k].pool = p;\n",
        )
    } else {
        ("&p->threads[i]", "p", "")
    };
    let [c1, c2] = create(id, &format!("plw{n}"), arg);
    let first = u8::from(short);
    p.functions.push_str(&format!(
        "struct plp{n} *plc{n}(int n)
{{
    struct plp{n} *p = malloc(sizeof *p);
    if (!p)
        abort();
    pthread_mutex_init(&p->lock, NULL);
    p->done = 0;
    p->size = n;
    p->threads = malloc(n * sizeof *p->threads);
    if (!p->threads)
        abort();
{owners}    for (int i = 0; i < {bound}; i++)
        {c1}
        {c2}
    return p;
}}

void plj{n}(struct plp{n} *q)
{{
    for (int j = {first}; j < q->size; j++)
        pthread_join(q->threads[j]{tid}, NULL);
}}

"
    ));
    p.decls.push(format!("struct plp{n} *plv{n};"));
    p.start.push(format!("plv{n} = plc{n}(3);"));
    p.stop.push(format!("plj{n}(plv{n});"));
    p.stop.push(format!("pld{n} += 1;"));
    p.stop.push(format!("plv{n}->done += 1;"));
    if short {
        p.stop
            .push(format!("pthread_join(plv{n}->threads[0]{tid}, NULL);"));
    }
    p.stop.push(format!("free(plv{n}->threads);"));
    p
}

fn jobs(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::Jobs {
        copy,
        early,
        next,
        iterations: it,
    } = *idiom
    else {
        unreachable!("a jobs idiom")
    };
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "struct ojb{n} {{
    unsigned in;
    unsigned out;
}};
"
    ));
    p.functions.push_str(&thread_fn(
        &format!("ojw{n}"),
        &[format!("struct ojb{n} *job = arg;")],
        it,
        &["job->out += job->in;".to_string()],
        &["return NULL;"],
    ));
    p.decls.push(format!("pthread_t ojt{n}[3];"));
    p.decls.push(format!("struct ojb{n} *oja{n}[3];"));
    p.decls.push(format!("unsigned ojs{n} = 0;"));
    p.start.push("for (int i = 0; i < 3; i++) {".into());
    let (fresh, job) = if copy {
        (
            vec![
                format!("struct ojb{n} *x = malloc(sizeof *x);"),
                "if (!x)".to_string(),
                "    abort();".to_string(),
            ],
            "x".to_string(),
        )
    } else {
        (
            vec![
                format!("oja{n}[i] = malloc(sizeof *oja{n}[i]);"),
                format!("if (!oja{n}[i])"),
                "    abort();".to_string(),
            ],
            format!("oja{n}[i]"),
        )
    };
    let mut body = fresh;
    body.push(format!("{job}->in = (unsigned)i;"));
    body.push(format!("{job}->out = 0;"));
    if copy {
        body.push(format!("oja{n}[i] = x;"));
    }
    body.extend(create(&format!("&ojt{n}[i]"), &format!("ojw{n}"), &job));
    p.start.extend(body.into_iter().map(|l| format!("    {l}")));
    p.start.push("}".into());
    let join = format!("    pthread_join(ojt{n}[i], NULL);");
    let read = format!("    ojs{n} += oja{n}[i]->out;");
    p.stop.push("for (int i = 0; i < 3; i++) {".into());
    if early {
        p.stop.push(read);
        p.stop.push(join);
    } else {
        p.stop.push(join);
        p.stop.push(read);
    }
    if next {
        p.stop.push("    if (i + 1 < 3)".into());
        p.stop
            .push(format!("        ojs{n} += oja{n}[i + 1]->out;"));
    }
    p.stop.push("}".into());
    p.stop.push("for (int i = 0; i < 3; i++)".into());
    p.stop.push(format!("    free(oja{n}[i]);"));
    p.stop.push(format!("printf(\"%u\\n\", ojs{n});"));
    p
}

fn slots(n: usize, form: SlotForm, shared: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    let index = if shared { "i / 2" } else { "i" };
    let by_value = vec!["long id = (long)arg;".to_string()];
    let (field, prologue, body) = match form {
        SlotForm::Pointer => (
            "unsigned *out;",
            vec![format!("struct sla{n} *a = arg;")],
            vec!["*a->out += i;".to_string()],
        ),
        SlotForm::Field => (
            "int id;",
            vec![
                format!("struct sla{n} *a = arg;"),
                "int id = a->id;".to_string(),
            ],
            vec![format!("sld{n}[id] += i;")],
        ),
        SlotForm::Helper => ("int id;", by_value, vec![format!("slh{n}(id, i);")]),
        SlotForm::Block => (
            "unsigned n;",
            by_value,
            vec![format!("slb{n}[id] += i;"), format!("slp{n}[id]->n += i;")],
        ),
        SlotForm::Bounds => (
            "int lo, hi;",
            vec![format!("struct sla{n} *a = arg;")],
            vec![format!(
                "for (int r = a->lo; r < a->hi; r++)\n            slr{n}[r] += i;"
            )],
        ),
        SlotForm::Range => (
            "int id;",
            vec![
                by_value[0].clone(),
                "long end = (id == 2) ? 7 : (id + 1) * 2;".to_string(),
            ],
            vec![format!(
                "for (long r = id * 2; r < end; r++)\n            slr{n}[r] += i;"
            )],
        ),
    };
    p.globals.push_str(&format!(
        "struct sla{n} {{\n    {field}\n}};\nunsigned sld{n}[3];\n"
    ));
    match form {
        SlotForm::Helper => {
            p.functions.push_str(&format!(
                "static void slh{n}(long id, unsigned v)\n{{\n    sld{n}[id] += v;\n}}\n\n"
            ));
        }
        SlotForm::Block => {
            p.globals.push_str(&format!("unsigned *slb{n};\n"));
            p.globals.push_str(&format!("struct sla{n} **slp{n};\n"));
        }
        SlotForm::Range | SlotForm::Bounds => {
            p.globals.push_str(&format!("unsigned slr{n}[7];\n"));
        }
        SlotForm::Field | SlotForm::Pointer => {}
    }
    let epilogue: &[&str] = if form == SlotForm::Pointer {
        &["free(a);", "return NULL;"]
    } else {
        &["return NULL;"]
    };
    p.functions += &thread_fn(&format!("slw{n}"), &prologue, it, &body, epilogue);
    p.decls.push(format!("pthread_t slt{n}[3];"));
    match form {
        SlotForm::Pointer => p.decls.push(format!("unsigned slo{n}[3];")),
        SlotForm::Field | SlotForm::Bounds => p.decls.push(format!("struct sla{n} sle{n}[3];")),
        SlotForm::Block => {
            p.start.push(format!("slb{n} = calloc(3, sizeof *slb{n});"));
            p.start.push(format!("if (!slb{n})"));
            p.start.push("    abort();".into());
            p.start.push(format!("slp{n} = calloc(3, sizeof *slp{n});"));
            p.start.push(format!("if (!slp{n})"));
            p.start.push("    abort();".into());
            p.start.push("for (int i = 0; i < 3; i++) {".into());
            p.start
                .push(format!("    slp{n}[i] = calloc(1, sizeof **slp{n});"));
            p.start.push(format!("    if (!slp{n}[i])"));
            p.start.push("        abort();".into());
            p.start.push("}".into());
        }
        SlotForm::Helper | SlotForm::Range => {}
    }
    p.start.push("for (int i = 0; i < 3; i++) {".into());
    let mut lines = Vec::new();
    let arg = match form {
        SlotForm::Pointer => {
            lines.push(format!("slo{n}[i] = 0;"));
            lines.push(format!("struct sla{n} *a = malloc(sizeof *a);"));
            lines.push("if (!a)".into());
            lines.push("    abort();".into());
            lines.push(format!("a->out = &slo{n}[{index}];"));
            "a".to_string()
        }
        SlotForm::Field => {
            lines.push(format!("sle{n}[i].id = {index};"));
            format!("&sle{n}[i]")
        }
        SlotForm::Bounds => {
            lines.push(format!("sle{n}[i].lo = {index} * 2;"));
            lines.push(format!("sle{n}[i].hi = ({index} + 1) * 2;"));
            format!("&sle{n}[i]")
        }
        SlotForm::Helper | SlotForm::Block | SlotForm::Range => {
            format!("(void *)(long)({index})")
        }
    };
    lines.extend(create(&format!("&slt{n}[i]"), &format!("slw{n}"), &arg));
    p.start
        .extend(lines.into_iter().map(|l| format!("    {l}")));
    p.start.push("}".into());
    p.stop.push("for (int i = 0; i < 3; i++)".into());
    p.stop.push(format!("    pthread_join(slt{n}[i], NULL);"));
    let read = match form {
        SlotForm::Pointer => "slo",
        SlotForm::Block => "slb",
        SlotForm::Range | SlotForm::Bounds => "slr",
        SlotForm::Field | SlotForm::Helper => "sld",
    };
    p.stop.push(format!(
        "printf(\"%u\\n\", {read}{n}[0] + {read}{n}[1] + {read}{n}[2]);"
    ));
    if form == SlotForm::Block {
        p.stop.push(format!("free(slb{n});"));
        p.stop.push(format!(
            "printf(\"%u\\n\", slp{n}[0]->n + slp{n}[1]->n + slp{n}[2]->n);"
        ));
        p.stop.push("for (int i = 0; i < 3; i++)".into());
        p.stop.push(format!("    free(slp{n}[i]);"));
        p.stop.push(format!("free(slp{n});"));
    }
    p
}

fn batches(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::Batches {
        batches,
        locked,
        stray,
        loops,
        iterations: it,
        moved,
    } = *idiom
    else {
        unreachable!("a batches idiom")
    };
    let moved = moved && !loops;
    let mut p = Parts::default();
    let done = if moved { " int done;" } else { "" };
    p.globals.push_str(&format!(
        "struct bn{n} {{ pthread_t tid; struct bn{n} *link;{done} }};
struct bgt{n} {{ pthread_mutex_t mu; }};
struct bn{n} *br{n};
struct bgt{n} *bg{n};
unsigned bd{n}, bx{n}, bq{n};
"
    ));
    if moved {
        p.globals.push_str(&format!(
            "pthread_mutex_t bl{n} = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t bc{n} = PTHREAD_COND_INITIALIZER;
unsigned bf{n};
"
        ));
    }
    let add = maybe_locked(
        locked,
        &format!("&bg{n}->mu"),
        format!("bd{n} += 1; bq{n} += 1;"),
    );
    let move_node = format!(
        "struct bn{n} **at = &br{n}, *b;
    pthread_mutex_lock(&bl{n});
    while ((b = *at) != NULL && !pthread_equal(b->tid, pthread_self()))
        at = &b->link;
    if (b != NULL) {{
        b->done = 1;
        *at = b->link;
        b->link = br{n};
        br{n} = b;
    }}
    bf{n} += 1;
    pthread_cond_broadcast(&bc{n});
    pthread_mutex_unlock(&bl{n});"
    );
    let epilogue: Vec<&str> = if moved {
        vec![&move_node, "return NULL;"]
    } else {
        vec!["return NULL;"]
    };
    let worker = thread_fn(
        &format!("bw{n}"),
        &["(void)arg;".into()],
        it,
        &add,
        &epilogue,
    );
    let (hold, let_go) = if moved {
        (
            format!("\n    pthread_mutex_lock(&bl{n});"),
            format!("\n    pthread_mutex_unlock(&bl{n});"),
        )
    } else {
        (String::new(), String::new())
    };
    let fresh = if moved { "\n    b->done = 0;" } else { "" };
    let reap = if moved {
        format!(
            "    while (br{n} != NULL) {{
        struct bn{n} **at = &br{n}, *b;
        while (bf{n} == 0)
            pthread_cond_wait(&bc{n}, &bl{n});
        while ((b = *at) != NULL && !b->done)
            at = &b->link;
        if (b == NULL)
            abort();
        pthread_join(b->tid, NULL);
        bf{n} -= 1;
        *at = b->link;
        free(b);
    }}"
        )
    } else {
        format!(
            "    while (br{n} != NULL) {{
        struct bn{n} *b = br{n};
        pthread_join(b->tid, NULL);
        br{n} = b->link;
        free(b);
    }}"
        )
    };
    p.functions.push_str(&format!(
        "void bs{n}(void)
{{
    if (bg{n} != NULL)
        return;
    bg{n} = malloc(sizeof *bg{n});
    if (bg{n} == NULL)
        abort();
    pthread_mutex_init(&bg{n}->mu, NULL);
    bq{n} = 0;
}}

{worker}void bp{n}(void)
{{{hold}
    struct bn{n} *b = malloc(sizeof *b);
    if (b == NULL)
        abort();{fresh}
    if (pthread_create(&b->tid, NULL, bw{n}, NULL) != 0)
        abort();
    b->link = br{n};
    br{n} = b;{let_go}
}}

void bk{n}(void)
{{
    pthread_mutex_destroy(&bg{n}->mu);
    free(bg{n});
    bg{n} = NULL;
}}

void bj{n}(void)
{{{hold}
{reap}{let_go}
    bk{n}();
}}

"
    ));
    if stray {
        let body = [format!("bx{n} += 1; bq{n} += 1;")];
        let f = thread_fn(
            &format!("bz{n}"),
            &["(void)arg;".into()],
            it,
            &body,
            &["return NULL;"],
        );
        p.functions.push_str(&f);
        p.decls.push(format!("pthread_t bzt{n}[{batches}];"));
    }
    p.start
        .push(format!("for (int bb = 0; bb < {batches}; bb++) {{"));
    p.start.push(format!("    bs{n}();"));
    if loops {
        p.decls.push(format!("pthread_t bwt{n}[2];"));
        p.start.push("    for (int k = 0; k < 2; k++)".into());
        for line in create(&format!("&bwt{n}[k]"), &format!("bw{n}"), "NULL") {
            p.start.push(format!("        {line}"));
        }
    } else {
        p.start.push(format!("    bp{n}();"));
        p.start.push(format!("    bp{n}();"));
    }
    if stray {
        for line in create(&format!("&bzt{n}[bb]"), &format!("bz{n}"), "NULL") {
            p.start.push(format!("    {line}"));
        }
    }
    for line in maybe_locked(true, &format!("&bg{n}->mu"), format!("bd{n} += 1;")) {
        p.start.push(format!("    {line}"));
    }
    if loops {
        p.start.push("    for (int k = 0; k < 2; k++)".into());
        p.start
            .push(format!("        pthread_join(bwt{n}[k], NULL);"));
        p.start.push(format!("    bk{n}();"));
    } else {
        p.start.push(format!("    bj{n}();"));
    }
    p.start.push("}".into());
    p.stop.push(format!("bd{n} += 1; bq{n} += 1;"));
    if stray {
        p.stop.push(format!("bx{n} += 1;"));
        p.stop
            .push(format!("for (int bb = 0; bb < {batches}; bb++)"));
        p.stop.push(format!("    pthread_join(bzt{n}[bb], NULL);"));
    }
    p
}

fn queue(idiom: &Idiom, n: usize) -> Parts {
    let Idiom::Queue {
        push,
        late,
        peek,
        object,
        iterations: it,
    } = *idiom
    else {
        unreachable!("a queue idiom")
    };
    let mut p = queue_with_globals(n, push, late, peek, it);
    if object {
        in_an_object(&mut p, n, peek);
    }
    p
}

/// The queue idiom's lists, mutex and end flag moved into a `struct qoN` that `main` allocates
/// and hands to its threads, which name them through their argument `q`.
fn in_an_object(p: &mut Parts, n: usize, peek: bool) {
    let names = ["qm", "qh", "ql", "qd", "qe"];
    let members = ["m", "h", "l", "d", "e"];
    let rename = |text: &str, base: &str| {
        let mut out = text.to_string();
        for (name, member) in names.iter().zip(members) {
            out = out.replace(&format!("{name}{n}"), &format!("{base}->{member}"));
        }
        out
    };
    p.globals = format!(
        "struct qt{n} {{
    unsigned in;
    unsigned out;
    struct qt{n} *next;
}};
struct qo{n} {{
    pthread_mutex_t m;
    struct qt{n} *h, *l, *d;
    int e;
}};
"
    );
    p.functions =
        rename(&p.functions, "q").replace("(void)arg;\n", &format!("struct qo{n} *q = arg;\n"));
    if peek {
        p.functions = p.functions.replacen(
            &format!("void *qp{n}(void *arg)\n{{\n"),
            &format!("void *qp{n}(void *arg)\n{{\n    struct qo{n} *q = arg;\n"),
            1,
        );
    }
    p.decls.push(format!("struct qo{n} *qq{n};"));
    let owner = format!("qq{n}");
    let mut start = vec![
        format!("{owner} = calloc(1, sizeof *{owner});"),
        format!("if (!{owner})"),
        "    abort();".to_string(),
        format!("pthread_mutex_init(&{owner}->m, NULL);"),
    ];
    start.extend(
        p.start
            .iter()
            .map(|l| rename(l, &owner).replace(", NULL) != 0)", &format!(", {owner}) != 0)"))),
    );
    p.start = start;
    p.stop = p.stop.iter().map(|l| rename(l, &owner)).collect();
    p.stop.push(format!("free({owner});"));
}

/// The queue idiom with its lists, mutex and end flag in globals.
fn queue_with_globals(n: usize, push: bool, late: bool, peek: bool, it: u32) -> Parts {
    let mut p = Parts::default();
    p.globals.push_str(&format!(
        "struct qt{n} {{
    unsigned in;
    unsigned out;
    struct qt{n} *next;
}};
static pthread_mutex_t qm{n} = PTHREAD_MUTEX_INITIALIZER;
static struct qt{n} *qh{n}, *ql{n}, *qd{n};
static int qe{n};
"
    ));
    let late = if late {
        "        t->out += 1;\n".to_string()
    } else {
        String::new()
    };
    p.functions.push_str(&format!(
        "void *qw{n}(void *arg)
{{
    (void)arg;
    for (;;) {{
        struct qt{n} *t;
        int end;
        pthread_mutex_lock(&qm{n});
        t = qh{n};
        if (t != NULL) {{
            qh{n} = t->next;
            if (qh{n} == NULL)
                ql{n} = NULL;
        }}
        end = qe{n};
        pthread_mutex_unlock(&qm{n});
        if (t == NULL) {{
            if (end)
                break;
            continue;
        }}
        for (unsigned i = 0; i < {it}u; i++)
            t->out += t->in;
        pthread_mutex_lock(&qm{n});
        t->next = qd{n};
        qd{n} = t;
        pthread_mutex_unlock(&qm{n});
{late}    }}
    return NULL;
}}

"
    ));
    let threads = if peek { 3 } else { 2 };
    if peek {
        p.functions.push_str(&thread_fn(
            &format!("qp{n}"),
            &[],
            it,
            &[
                format!("struct qt{n} *first;"),
                format!("pthread_mutex_lock(&qm{n});"),
                format!("first = qh{n};"),
                format!("pthread_mutex_unlock(&qm{n});"),
                "if (first != NULL)".to_string(),
                "    first->out += 1;".to_string(),
            ],
            &["return arg;"],
        ));
    }
    p.decls.push(format!("pthread_t qwt{n}[{threads}];"));
    p.decls.push(format!("struct qt{n} *qg{n}[6];"));
    p.decls.push(format!("unsigned qs{n} = 0;"));
    for k in 0..threads {
        let f = if k == 2 { "qp" } else { "qw" };
        p.start
            .extend(create(&format!("&qwt{n}[{k}]"), &format!("{f}{n}"), "NULL"));
    }
    p.start.push("for (unsigned k = 0; k < 6; k++) {".into());
    p.start
        .push(format!("    struct qt{n} *t = malloc(sizeof *t);"));
    p.start.push("    if (!t)".into());
    p.start.push("        abort();".into());
    p.start.push("    t->in = k;".into());
    p.start.push("    t->out = 0;".into());
    if push {
        p.start.push(format!("    pthread_mutex_lock(&qm{n});"));
        p.start.push(format!("    t->next = qh{n};"));
        p.start.push(format!("    qh{n} = t;"));
    } else {
        p.start.push("    t->next = NULL;".into());
        p.start.push(format!("    pthread_mutex_lock(&qm{n});"));
        p.start.push(format!("    if (ql{n} != NULL)"));
        p.start.push(format!("        ql{n}->next = t;"));
        p.start.push("    else".into());
        p.start.push(format!("        qh{n} = t;"));
        p.start.push(format!("    ql{n} = t;"));
    }
    p.start.push(format!("    pthread_mutex_unlock(&qm{n});"));
    p.start.push("}".into());
    p.stop.extend(maybe_locked(
        true,
        &format!("&qm{n}"),
        format!("qe{n} = 1;"),
    ));
    p.stop.push("for (unsigned got = 0; got < 6;) {".into());
    for line in [
        format!("struct qt{n} *t;"),
        format!("pthread_mutex_lock(&qm{n});"),
        format!("t = qd{n};"),
        "if (t != NULL)".to_string(),
        format!("    qd{n} = t->next;"),
        format!("pthread_mutex_unlock(&qm{n});"),
        "if (t == NULL)".to_string(),
        "    continue;".to_string(),
        format!("qs{n} += t->out;"),
        format!("qg{n}[got++] = t;"),
    ] {
        p.stop.push(format!("    {line}"));
    }
    p.stop.push("}".into());
    p.stop.push(format!("for (int k = 0; k < {threads}; k++)"));
    p.stop.push(format!("    pthread_join(qwt{n}[k], NULL);"));
    p.stop.push("for (int k = 0; k < 6; k++)".into());
    p.stop.push(format!("    free(qg{n}[k]);"));
    p.stop.push(format!("printf(\"%u\\n\", qs{n});"));
    p
}

/// Plans the idioms of `plan` and places each one's start and stop in `main`'s timeline, the
/// start before the stop.
pub fn add(rng: &mut Rng, plan: &mut Plan, options: Options) {
    plan.idioms = self::plan(rng, options);
    for n in 0..plan.idioms.len() {
        let len = plan.timeline.len();
        let start = rng.range(0, len);
        plan.timeline.insert(start, Event::Start(n));
        let stop = rng.range(start + 1, len + 1);
        plan.timeline.insert(stop, Event::Stop(n));
    }
    // Batches are drawn last, after everything else a seed draws, from a copy of the generator,
    // so that a program without them is the one the seed always gave; likewise calls through
    // pointers, state machines, array helpers, locks behind members, create wrappers returning
    // the id, a thread library's launcher and turns, each drawn after the ones before it from the same
    // copy.
    let mut later = rng.clone();
    let drawn: [fn(&mut Rng) -> Idiom; 8] = [
        |r| {
            let batches = r.range(1, 3) as u8;
            let (locked, stray, loops) = (r.chance(60), r.chance(40), r.chance(40));
            let iterations = r.range(40, 150) as u32;
            // Drawn from what the seed always drew, so that the programs after it stay the
            // same.
            let moved = iterations.is_multiple_of(2);
            Idiom::Batches {
                batches,
                locked,
                stray,
                loops,
                iterations,
                moved,
            }
        },
        |r| Idiom::Methods {
            table: r.chance(50),
            skip: r.chance(50),
            iterations: r.range(40, 150) as u32,
        },
        |r| Idiom::States {
            early: r.chance(40),
            extra: r.chance(50),
            iterations: r.range(40, 150) as u32,
        },
        |r| Idiom::Helpers {
            early: r.chance(40),
            iterations: r.range(40, 150) as u32,
        },
        |r| Idiom::Gates {
            wrong: r.chance(40),
            renew: r.chance(50),
            iterations: r.range(40, 150) as u32,
        },
        |r| Idiom::Starts {
            early: r.chance(40),
            iterations: r.range(40, 150) as u32,
        },
        |r| Idiom::Launches {
            twice: r.chance(40),
            locked: r.chance(50),
            early: r.chance(30),
            iterations: r.range(40, 150) as u32,
            elements: r.chance(50),
        },
        |r| Idiom::Turns {
            takers: r.range(1, 2) as u8,
            late: r.chance(30),
            helpers: r.chance(50),
            observer: r.chance(30),
            iterations: r.range(40, 150) as u32,
            object: r.range(0, 2) as u8,
        },
    ];
    for draw in drawn {
        if later.chance(15) {
            let idiom = draw(&mut later);
            place(&mut later, plan, idiom);
        }
    }
}

/// Adds `idiom` to `plan`, its start and stop at places drawn from `rng`.
fn place(rng: &mut Rng, plan: &mut Plan, idiom: Idiom) {
    plan.idioms.push(idiom);
    let len = plan.timeline.len();
    let start = rng.range(0, len);
    plan.timeline
        .insert(start, Event::Start(plan.idioms.len() - 1));
    let stop = rng.range(start + 1, len + 1);
    plan.timeline
        .insert(stop, Event::Stop(plan.idioms.len() - 1));
}
