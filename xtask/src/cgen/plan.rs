//! The shape of a generated program, before it is written as C: the shared locations and the
//! lock each is meant to be guarded by, the helper functions (called directly, through a table
//! of handlers, through a callback field, or by the library), the thread functions with their
//! argument kinds, and `main`'s timeline of creates, joins and its own concurrent work. The
//! choices are random; which of them race is decided by ThreadSanitizer, not by the plan.

use super::rng::Rng;

/// How many locks and slots the arrays hold (`glocks`, `garr`, `locks` and `slots` fields).
pub const ARRAY_LEN: u8 = 4;

/// An array index: a constant, or the context's stripe variable modulo [`ARRAY_LEN`] (the thread
/// id, the iteration, or a helper's parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idx {
    Const(u8),
    Stripe,
}

/// An `unsigned` field of `struct obj`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Count,
    InnerA,
    InnerB,
    Slot(Idx),
}

/// A shared location, as the code names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// `gK`, a global scalar.
    Global(u8),
    /// `garr[…]`, an element of a global array.
    GlobalArr(Idx),
    /// `gobj.…`, a field of the global struct.
    Gobj(Field),
    /// `o->…`, a field of the object the running function was given (heap or `&gobj`).
    Obj(Field),
    /// `lib_stats()->hits` or `->total`: a struct inside the library, through its getter.
    LibStats(bool),
}

/// A mutex, as the code names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lock {
    /// `mK`, a global mutex.
    Global(u8),
    /// `glocks[…]`, a global array of mutexes.
    GlobalArr(Idx),
    /// `gobj.lock`.
    Gobj,
    /// `gobj.locks[…]`, an array of mutexes inside a global struct.
    GobjArr(Idx),
    /// `o->lock`.
    Obj,
    /// `o->locks[…]`.
    ObjArr(Idx),
}

impl Lock {
    /// Whether the lock is chosen by the stripe variable, so it may only be held where that
    /// variable means the same thing (never across a call).
    pub fn striped(self) -> bool {
        matches!(
            self,
            Lock::GlobalArr(Idx::Stripe) | Lock::GobjArr(Idx::Stripe) | Lock::ObjArr(Idx::Stripe)
        )
    }
}

/// The condition of a conditionally taken lock: `if (c) lock(); … if (c) unlock();` with a `c`
/// that cannot change in between, so the pair is balanced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// `(iter & 1u)`: the lock is skipped on odd iterations.
    Parity,
    /// `lockflag`, a global `main` sets to 1 before any thread starts.
    Flag,
    /// `(iter < 100000u)`: always true, but not obviously so.
    Always,
}

/// How a critical section is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `pthread_mutex_lock(l); … pthread_mutex_unlock(l);`
    Direct,
    /// `lock_m(l); … unlock_m(l);` through wrapper functions.
    Wrapper,
    /// `if (c) pthread_mutex_lock(l); … if (c) pthread_mutex_unlock(l);`
    Cond(Cond),
    /// `if (iter & 1u) { lock; …; unlock; } else { lock; …; unlock; }`
    Branches,
    /// `if (pthread_mutex_trylock(l) == 0) { …; unlock; }`
    Try,
}

/// How a location is accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// `sum += loc;`
    Read,
    /// `loc++;`
    Increment,
    /// `loc += iter;`
    Add,
    /// `loc = iter;`
    Assign,
}

/// What a call goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `hK(o, iter)`, or `lib_apply(hK, o, iter)` when `through_library`.
    Helper { index: usize, through_library: bool },
    /// `handlers[iter % n](o, iter)`.
    Table,
    /// `o->cb(o, iter)`.
    Callback,
}

/// One statement (or critical section) of a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Access(Loc, Access),
    /// A critical section; `alt` is the else branch of [`Shape::Branches`].
    Locked {
        lock: Lock,
        shape: Shape,
        body: Vec<Op>,
        alt: Vec<Op>,
    },
    Call(Target),
    /// `lib_add(&loc, iter)`: the library writes through its argument.
    LibAdd(Loc),
    /// `lib_tick()`: the library updates a counter of its own.
    LibTick,
}

/// A function `unsigned hK(struct obj *o, unsigned v)`, called only where exactly `held` is held.
#[derive(Clone, Debug)]
pub struct Helper {
    pub held: Option<Lock>,
    pub body: Vec<Op>,
}

/// Which object a thread is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjRef {
    /// `o`, allocated by `main` through `obj_new`.
    Main,
    /// `o2`, a second heap object.
    Second,
    /// `&gobj`.
    Global,
}

/// What a thread's `void *` argument is, and so where its `o` and `id` come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A `struct obj *`; the stripe is the iteration.
    Obj(ObjRef),
    /// A `struct targ *` (object and id): `&targs[k]` in `main`, or from `targ_new` and freed
    /// by the thread.
    Targ { obj: ObjRef, heap: bool },
    /// The id as an integer cast to `void *`; the object is the global pointer `gptr`.
    Int,
    /// The id as an integer; the object is what the library was given (`lib_load()`).
    Lib,
}

/// A thread function.
#[derive(Clone, Debug)]
pub struct Worker {
    pub arg: ArgKind,
    pub iterations: u32,
    pub body: Vec<Op>,
}

/// Threads running one worker: one (`count == 1`, a single `pthread_t`) or several created and
/// joined in loops.
#[derive(Clone, Debug)]
pub struct Group {
    pub worker: usize,
    pub count: usize,
    /// Created through a function-pointer variable rather than the function's name.
    pub through_pointer: bool,
    /// Created by the `spawn` helper rather than by `pthread_create` in `main`.
    pub through_spawn: bool,
}

/// A step of `main` after its setup.
#[derive(Clone, Debug)]
pub enum Event {
    Create(usize),
    Join(usize),
    /// A loop of `main`'s own work (`iterations`, `body`), concurrent with running threads.
    Work(u32, Vec<Op>),
    /// The start of idiom `n` of [`Plan::idioms`]: its threads created, `main`'s own part of it.
    Start(usize),
    /// The stop of idiom `n`: its threads joined.
    Stop(usize),
}

/// A whole program.
#[derive(Clone, Debug)]
pub struct Plan {
    pub library: bool,
    /// `obj_new` and `targ_new` allocate through `xmalloc` (a `void *` wrapper that aborts on
    /// NULL) rather than calling `malloc` themselves.
    pub wrapper: bool,
    /// The shared locations and the lock each is meant to be guarded by (`None`: unguarded).
    pub pool: Vec<(Loc, Option<Lock>)>,
    pub helpers: Vec<Helper>,
    /// The handler table: the lock its handlers expect, and the helpers in it.
    pub table: Option<(Option<Lock>, Vec<usize>)>,
    /// The helper stored in every object's `cb` field.
    pub callback: Option<usize>,
    pub workers: Vec<Worker>,
    pub groups: Vec<Group>,
    /// Locations `main` writes before creating any thread.
    pub init: Vec<Loc>,
    pub timeline: Vec<Event>,
    /// The self-contained idioms (thread-locals, striping with offsets, …), started and stopped
    /// by the timeline's [`Event::Start`] and [`Event::Stop`].
    pub idioms: Vec<super::idioms::Idiom>,
}

/// Where an op is being generated.
#[derive(Clone, Copy)]
struct Ctx {
    /// The lock held around it, if any: nothing else may then be acquired (no nesting, so no
    /// deadlock and no lock-order report).
    held: Option<Lock>,
    /// Inside a helper, calls are not generated (helpers are leaves).
    in_helper: bool,
}

/// The planner: the random choices and the helpers made so far.
struct Planner<'r> {
    rng: &'r mut Rng,
    library: bool,
    pool: Vec<(Loc, Option<Lock>)>,
    helpers: Vec<Helper>,
    table: Option<(Option<Lock>, Vec<usize>)>,
    callback: Option<usize>,
}

/// Chance, in percent, that an access to a guarded location forgets or confuses its lock.
const MISTAKE: u64 = 7;
/// Chance, in percent, that a location is guarded by no lock at all.
const UNGUARDED: u64 = 15;
/// The most helpers a program has.
const MAX_HELPERS: usize = 6;

/// Plans a program from `rng`; `library` allows the idioms that go through `lib.c`.
pub fn plan(rng: &mut Rng, library: bool) -> Plan {
    let mut p = Planner {
        rng,
        library,
        pool: Vec::new(),
        helpers: Vec::new(),
        table: None,
        callback: None,
    };
    let size = p.rng.range(2, 5);
    while p.pool.len() < size {
        let loc = p.location();
        if p.pool.iter().all(|&(l, _)| l != loc) {
            let guard = p.guard_for(loc);
            p.pool.push((loc, guard));
        }
    }
    let (workers, groups) = p.threads();
    let timeline = p.timeline(groups.len());
    let locations: Vec<Loc> = p.pool.iter().map(|&(l, _)| l).collect();
    let init = locations.into_iter().filter(|_| p.rng.chance(50)).collect();
    let wrapper = p.rng.chance(50);
    Plan {
        library,
        wrapper,
        pool: p.pool,
        helpers: p.helpers,
        table: p.table,
        callback: p.callback,
        workers,
        groups,
        init,
        timeline,
        idioms: Vec::new(),
    }
}

impl Planner<'_> {
    fn idx(&mut self) -> Idx {
        if self.rng.chance(35) {
            Idx::Stripe
        } else {
            Idx::Const(self.rng.range(0, usize::from(ARRAY_LEN) - 1) as u8)
        }
    }

    fn field(&mut self) -> Field {
        match self.rng.range(0, 3) {
            0 => Field::Count,
            1 => Field::InnerA,
            2 => Field::InnerB,
            _ => Field::Slot(self.idx()),
        }
    }

    fn location(&mut self) -> Loc {
        let kinds = if self.library { 6 } else { 5 };
        match self.rng.range(0, kinds - 1) {
            0 => Loc::Global(self.rng.range(0, 2) as u8),
            1 => Loc::GlobalArr(self.idx()),
            2 => Loc::Gobj(self.field()),
            3 | 4 => Loc::Obj(self.field()),
            _ => Loc::LibStats(self.rng.chance(50)),
        }
    }

    /// The lock meant to guard `loc`: usually one that lives beside it (its object's lock, the
    /// lock of the same array slot), sometimes a global one.
    fn guard_for(&mut self, loc: Loc) -> Option<Lock> {
        if self.rng.chance(UNGUARDED) {
            return None;
        }
        let global = Lock::Global(self.rng.range(0, 2) as u8);
        let beside_idx = |f: Field, fallback: Idx| match f {
            Field::Slot(i) => i,
            _ => fallback,
        };
        let fallback = Idx::Const(self.rng.range(0, usize::from(ARRAY_LEN) - 1) as u8);
        let lock = match (loc, self.rng.range(0, 2)) {
            (Loc::GlobalArr(i), 0) => Lock::GlobalArr(i),
            (Loc::Gobj(_), 0) => Lock::Gobj,
            (Loc::Gobj(f), 1) => Lock::GobjArr(beside_idx(f, fallback)),
            (Loc::Obj(_), 0) => Lock::Obj,
            (Loc::Obj(f), 1) => Lock::ObjArr(beside_idx(f, fallback)),
            (Loc::LibStats(_), 0) => Lock::Gobj,
            _ => global,
        };
        Some(lock)
    }

    fn guard_of(&self, loc: Loc) -> Option<Lock> {
        self.pool
            .iter()
            .find(|&&(l, _)| l == loc)
            .and_then(|&(_, g)| g)
    }

    /// A lock other than `not`, for an access that takes the wrong one.
    fn other_lock(&mut self, not: Lock) -> Lock {
        loop {
            let l = match self.rng.range(0, 4) {
                0..=2 => Lock::Global(self.rng.range(0, 2) as u8),
                3 => Lock::Gobj,
                _ => Lock::Obj,
            };
            if l != not {
                return l;
            }
        }
    }

    fn access(&mut self) -> Access {
        match self.rng.range(0, 4) {
            0 | 1 => Access::Read,
            2 => Access::Increment,
            3 => Access::Add,
            _ => Access::Assign,
        }
    }

    fn shape(&mut self, lock: Lock) -> Shape {
        match self.rng.range(0, 9) {
            0..=3 => Shape::Direct,
            4 | 5 => Shape::Wrapper,
            6 => Shape::Cond(*self.rng.pick(&[Cond::Parity, Cond::Flag, Cond::Always])),
            7 if !lock.striped() => Shape::Branches,
            8 => Shape::Try,
            _ => Shape::Direct,
        }
    }

    /// A sequence of 1..=`max` ops.
    fn ops(&mut self, ctx: Ctx, max: usize) -> Vec<Op> {
        let n = self.rng.range(1, max);
        (0..n).map(|_| self.op(ctx)).collect()
    }

    /// One op where no lock is held, or inside a critical section of `ctx.held`.
    fn op(&mut self, ctx: Ctx) -> Op {
        if let Some(held) = ctx.held {
            return self.held_op(ctx, held);
        }
        let roll = self.rng.range(0, 99);
        let lib = self.library;
        match roll {
            0..=11 if !ctx.in_helper => self.call(ctx),
            12..=17 if !ctx.in_helper => self.table_call(ctx),
            18..=21 if !ctx.in_helper => self.callback_call(ctx),
            22..=29 if lib => {
                let loc = self.plain_location();
                self.guarded(ctx, loc, |_, _| Op::LibAdd(loc))
            }
            30..=33 if lib => {
                if self.rng.chance(80) {
                    let body = vec![Op::LibTick];
                    let shape = self.shape(Lock::Global(0));
                    self.section(ctx, Lock::Global(0), shape, body)
                } else {
                    Op::LibTick
                }
            }
            _ => {
                let loc = self.rng.pick(&self.pool).0;
                let access = self.access();
                self.guarded(ctx, loc, |_, _| Op::Access(loc, access))
            }
        }
    }

    /// A pool location `lib_add` can be given (an `unsigned` lvalue of the program).
    fn plain_location(&mut self) -> Loc {
        let plain: Vec<Loc> = self
            .pool
            .iter()
            .map(|&(l, _)| l)
            .filter(|l| !matches!(l, Loc::LibStats(_)))
            .collect();
        if plain.is_empty() {
            Loc::Global(0)
        } else {
            *self.rng.pick(&plain)
        }
    }

    /// `inner` inside a critical section of `loc`'s guard; or, by mistake, without it or under
    /// another lock.
    fn guarded(&mut self, ctx: Ctx, loc: Loc, inner: impl Fn(&mut Self, Ctx) -> Op) -> Op {
        let Some(guard) = self.guard_of(loc) else {
            return inner(self, ctx);
        };
        let lock = if self.rng.chance(MISTAKE) {
            if self.rng.chance(50) {
                return inner(self, ctx);
            }
            self.other_lock(guard)
        } else {
            guard
        };
        let shape = self.shape(lock);
        let inside = Ctx {
            held: Some(lock),
            ..ctx
        };
        let mut body = vec![inner(self, inside)];
        if self.rng.chance(30) {
            body.push(self.op(inside));
        }
        self.section(ctx, lock, shape, body)
    }

    /// A critical section around `body`, with a second body for [`Shape::Branches`].
    fn section(&mut self, ctx: Ctx, lock: Lock, shape: Shape, body: Vec<Op>) -> Op {
        let alt = if shape == Shape::Branches {
            let inside = Ctx {
                held: Some(lock),
                ..ctx
            };
            self.ops(inside, 2)
        } else {
            Vec::new()
        };
        Op::Locked {
            lock,
            shape,
            body,
            alt,
        }
    }

    /// An op inside a critical section of `held`: an access to a location `held` guards, a call
    /// of a helper that expects `held`, or (rarely) an access that needs another lock.
    fn held_op(&mut self, ctx: Ctx, held: Lock) -> Op {
        let mine: Vec<Loc> = self
            .pool
            .iter()
            .filter(|&&(_, g)| g == Some(held))
            .map(|&(l, _)| l)
            .collect();
        let roll = self.rng.range(0, 99);
        if roll < 25 && !ctx.in_helper && !held.striped() {
            return match roll {
                0..=14 => self.call(ctx),
                15..=19 => self.table_call(ctx),
                _ => self.callback_call(ctx),
            };
        }
        let loc = if mine.is_empty() || self.rng.chance(MISTAKE) {
            self.rng.pick(&self.pool).0
        } else {
            *self.rng.pick(&mine)
        };
        if self.library && !matches!(loc, Loc::LibStats(_)) && self.rng.chance(15) {
            return Op::LibAdd(loc);
        }
        Op::Access(loc, self.access())
    }

    /// A helper expecting `held`: an existing one, or a new one while there is room.
    fn helper(&mut self, held: Option<Lock>) -> Option<usize> {
        let existing: Vec<usize> = (0..self.helpers.len())
            .filter(|&k| self.helpers[k].held == held)
            .collect();
        if self.helpers.len() < MAX_HELPERS && (existing.is_empty() || self.rng.chance(50)) {
            let ctx = Ctx {
                held,
                in_helper: true,
            };
            let body = self.ops(ctx, 3);
            self.helpers.push(Helper { held, body });
            return Some(self.helpers.len() - 1);
        }
        existing.first().map(|_| *self.rng.pick(&existing))
    }

    fn call(&mut self, ctx: Ctx) -> Op {
        match self.helper(ctx.held) {
            Some(index) => Op::Call(Target::Helper {
                index,
                through_library: self.library && self.rng.chance(30),
            }),
            None => self.fallback(ctx),
        }
    }

    fn table_call(&mut self, ctx: Ctx) -> Op {
        if self.table.is_none() && self.helpers.len() + 2 <= MAX_HELPERS {
            let n = self.rng.range(2, 3).min(MAX_HELPERS - self.helpers.len());
            let mut members = Vec::new();
            for _ in 0..n {
                let body = self.ops(
                    Ctx {
                        held: ctx.held,
                        in_helper: true,
                    },
                    2,
                );
                self.helpers.push(Helper {
                    held: ctx.held,
                    body,
                });
                members.push(self.helpers.len() - 1);
            }
            self.table = Some((ctx.held, members));
        }
        match &self.table {
            Some((held, _)) if *held == ctx.held => Op::Call(Target::Table),
            _ => self.fallback(ctx),
        }
    }

    fn callback_call(&mut self, ctx: Ctx) -> Op {
        if self.callback.is_none() {
            self.callback = self.helper(ctx.held);
        }
        match self.callback {
            Some(k) if self.helpers[k].held == ctx.held => Op::Call(Target::Callback),
            _ => self.fallback(ctx),
        }
    }

    /// A plain access, when the call an op wanted cannot be made here.
    fn fallback(&mut self, ctx: Ctx) -> Op {
        let loc = self.rng.pick(&self.pool).0;
        let access = self.access();
        match ctx.held {
            Some(_) => Op::Access(loc, access),
            None => self.guarded(ctx, loc, |_, _| Op::Access(loc, access)),
        }
    }

    fn obj_ref(&mut self) -> ObjRef {
        *self
            .rng
            .pick(&[ObjRef::Main, ObjRef::Main, ObjRef::Second, ObjRef::Global])
    }

    /// The thread functions and the groups of threads running them.
    fn threads(&mut self) -> (Vec<Worker>, Vec<Group>) {
        let n = self.rng.range(1, 3);
        let mut workers = Vec::new();
        let mut groups = Vec::new();
        for w in 0..n {
            let arg = match self.rng.range(0, 4) {
                0 => ArgKind::Obj(self.obj_ref()),
                1 | 2 => ArgKind::Targ {
                    obj: self.obj_ref(),
                    heap: self.rng.chance(50),
                },
                3 if self.library => ArgKind::Lib,
                _ => ArgKind::Int,
            };
            let ctx = Ctx {
                held: None,
                in_helper: false,
            };
            let body = self.ops(ctx, 4);
            workers.push(Worker {
                arg,
                iterations: self.rng.range(50, 200) as u32,
                body,
            });
            let count = if self.rng.chance(40) {
                1
            } else {
                self.rng.range(2, 4)
            };
            groups.push(Group {
                worker: w,
                count,
                through_pointer: self.rng.chance(20),
                through_spawn: self.rng.chance(20),
            });
        }
        (workers, groups)
    }

    /// `main`'s steps: every group created before it is joined, and up to two loops of `main`'s
    /// own work somewhere after the first create.
    fn timeline(&mut self, groups: usize) -> Vec<Event> {
        let mut pending_create: Vec<usize> = (0..groups).collect();
        let mut running: Vec<usize> = Vec::new();
        let mut out = Vec::new();
        let mut work_left = self.rng.range(0, 2);
        while !pending_create.is_empty() || !running.is_empty() {
            let create = !pending_create.is_empty() && (running.is_empty() || self.rng.chance(65));
            if create {
                let g = pending_create.remove(0);
                out.push(Event::Create(g));
                running.push(g);
            } else {
                let k = self.rng.range(0, running.len() - 1);
                out.push(Event::Join(running.remove(k)));
            }
            if work_left > 0 && self.rng.chance(50) {
                work_left -= 1;
                let ctx = Ctx {
                    held: None,
                    in_helper: false,
                };
                let body = self.ops(ctx, 3);
                out.push(Event::Work(self.rng.range(20, 60) as u32, body));
            }
        }
        out
    }
}
