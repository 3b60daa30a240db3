//! What locksmith knows about library functions and types by name: one row per known function
//! (which argument is the lock a call acquires, which arguments a `pthread_create` takes the
//! thread function and its argument from, which functions allocate, never return, or keep no
//! copy of their pointer arguments), the closed set of the stubs' `__locksmith_*` intrinsics,
//! and the typedef names that are locks.
//!
//! Every pass asks this module; no other file spells a library function's name. A new pthread
//! primitive is one row in [`table`], plus one arm in the constraint generator when its
//! [`Kind`] is new. The rows are data ([`Model`]): a user's configuration adds or overrides
//! them ([`user`], [`Model::with_configured`]), one model per run, passed down to the lowering.
//!
//! A built-in row applies to a function only when the program does not define it: a user's own
//! `malloc` is analysed as written ([`crate::ir::Program::known`]). A configured row applies
//! whether or not the program defines the function ([`user`]). Functions without a row are
//! either modelled by a C stub (`libc-stubs/`) or *unmodelled*, which reports list.

mod intrinsics;
mod table;
pub mod user;

use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

pub use intrinsics::Intrinsic;
pub use user::{Configured, ConfiguredArg, Expect, Role};

use crate::ir::ctypes::LockKind;

/// An argument position (0-based) in a call of a modelled function.
pub type Arg = u8;

/// How a lock is held: exclusively (a mutex, a spin lock, an rwlock's write side) or shared
/// with other readers (an rwlock's read side).
pub use solver::threads::Mode as LockMode;

/// What a call of a known function does, for the analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Acquires the lock `*args[lock]` (paper §3.1, the state kind Acquire(ℓ)). `waits`: the
    /// call blocks until the lock is free, so it can take part in a deadlock; the acquire on a
    /// try-lock's success edge does not wait.
    Acquire {
        lock: Arg,
        mode: LockMode,
        waits: bool,
    },
    /// Releases the lock `*args[lock]` (Release(ℓ)).
    Release { lock: Arg },
    /// Tries to acquire `*args[lock]` and returns `success` exactly when it did: the lowering
    /// turns a test of the result into a branch whose success edge calls [`Intrinsic::Acquire`].
    TryAcquire {
        lock: Arg,
        mode: LockMode,
        success: TrySuccess,
    },
    /// Releases `*args[lock]` while it waits and holds it again when it returns
    /// (`pthread_cond_wait`).
    Wait { lock: Arg },
    /// Starts a thread running `args[func](args[arg])` (`args[func]()` without `arg`) and stores
    /// its id in `*args[id]` (without `id`, the thread has no handle a join could name).
    Fork {
        id: Option<Arg>,
        func: Arg,
        arg: Option<Arg>,
    },
    /// Waits for the thread `args[id]` to end, storing its result in `*args[out]` (if any).
    Join { id: Arg, out: Option<Arg> },
    /// Installs `args[handler]` as a signal handler: it runs as a thread of its own from then on.
    SignalHandler { handler: Arg },
    /// `sigaction`: installs the handler stored in `*args[act]`, writes the old one to
    /// `*args[old]`.
    SigAction { act: Arg, old: Arg },
    /// Calls `args[func]()` now, in the calling thread, once per control `*args[control]`
    /// (`pthread_once`); the control is held as a lock (see the constraint generator).
    CallOnce { control: Arg, func: Arg },
    /// Writes the object `*args[arg]` (`pthread_key_create`).
    WritesArg { arg: Arg },
    /// Returns memory private to the calling thread (`pthread_getspecific`).
    ThreadPrivate,
    /// Returns a fresh object (`malloc`): an allocation site, one per calling context.
    Alloc,
    /// Returns a fresh object that takes over the contents of `*args[old]` (`realloc`).
    Realloc { old: Arg },
    /// Stores a fresh object's address in `*args[out]` (`posix_memalign`).
    AllocInto { out: Arg },
    /// Ends the life of `*args[ptr]`: a write of the whole object (`free`).
    Free { ptr: Arg },
    /// Reads (or writes) the whole object `*args[ptr]` ([`Intrinsic::Read`], [`Intrinsic::Write`]).
    Access { ptr: Arg, write: bool },
    /// Copies `*args[src]` into `*args[dst]` untyped ([`Intrinsic::Copy`]).
    Copy { dst: Arg, src: Arg },
    /// Reads (or writes) through every pointer among the calling stub's variadic arguments.
    VarargsAccess { write: bool },
    /// Resumes execution at a `setjmp`: not followed, reported as knowingly unsound.
    LongJmp,
    /// Returns its argument `arg` unchanged (`__builtin_expect`); the lowering uses the argument.
    ReturnsArg { arg: Arg },
    /// Control never reaches the call (`__builtin_unreachable`): the lowering ends the path
    /// there without keeping the call.
    Unreachable,
    /// Initialises the lock `*args[lock]` with the attribute object `args[attr]`
    /// (`pthread_mutex_init`) or the type flags `args[attr]` (C11's `mtx_init`): a lock
    /// initialised with attributes (anything but a null pointer or `mtx_plain`, 0) may be a
    /// recursive mutex, which its holder may lock again (the deadlock check does not call that
    /// a self-deadlock).
    LockInit { lock: Arg, attr: Arg },
    /// No memory effect the analysis needs (attributes, condition signalling, lock
    /// initialisation, `exit`).
    NoEffect,
    /// Modelled by a C stub of `libc-stubs/` (or unmodelled without one): the row only carries
    /// the flags of [`Spec`].
    Stub,
    /// `sem_init(args[sem], _, args[value])`: the lowering records the value's constant.
    SemInit { sem: Arg, value: Arg },
    /// `pthread_mutexattr_settype(_, args[kind])`: the lowering records whether the kind is one
    /// whose mutexes may fail to lock again ([`relock_may_fail`]).
    MutexType { kind: Arg },
    /// `pthread_barrier_init(args[barrier], _, args[count])`: the lowering records the count's
    /// constant ([`crate::analyses::barriers`]).
    BarrierInit { barrier: Arg, count: Arg },
    /// `pthread_barrier_wait(args[barrier])`: ends a phase of the threads that wait on the
    /// barrier when the barrier qualifies ([`crate::analyses::barriers`]); otherwise it orders
    /// nothing.
    BarrierWait { barrier: Arg },
    /// `sem_wait(args[sem])`: acquires the semaphore when it behaves as a mutex
    /// ([`crate::analyses::semaphores`]); otherwise it orders nothing.
    SemWait { sem: Arg },
    /// `sem_post(args[sem])`: releases the semaphore when it behaves as a mutex.
    SemPost { sem: Arg },
    /// An atomic operation on `*args[ptr]` (C11 7.17.7, gcc's `__atomic_*` and `__sync_*`
    /// builtins): the lowering makes its accesses of `*args[ptr]` atomic ([`Atomic`]).
    Atomic(Atomic),
    /// Starts every function among its arguments as threads, any number of each, called with
    /// arguments from code locksmith cannot see: the caller of a library's entry points
    /// (`--entry`, `--library`, [`crate::entries`]).
    StartsEntries,
}

/// Which signal a function sends to its own process ([`Model::sends_signal`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sends {
    /// The one an argument names (`raise(sig)`, `kill(pid, sig)`).
    Arg(Arg),
    /// Always this one (`abort`: `SIGABRT`).
    Signal(i64),
    /// The one of the timer an argument names (`setitimer`: real, virtual or profiling).
    Timer(Arg),
    /// One the call chooses through a structure (`timer_create`): any.
    Chosen,
}

/// What a call does to the signals blocked in the calling thread, or to a signal set
/// ([`Model::mask_call`]), for [`crate::analyses::signal_masks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MaskCall {
    /// `sigprocmask(how, set, old)`, `pthread_sigmask(how, set, old)`: blocks (`SIG_BLOCK`,
    /// 0), unblocks (`SIG_UNBLOCK`, 1) or sets (`SIG_SETMASK`, 2) the signals of `*args[set]`
    /// in the calling thread (nothing when `set` is null).
    Mask { how: Arg, set: Arg },
    /// `sigemptyset(set)`: no signal.
    Empty { set: Arg },
    /// `sigfillset(set)`: every signal.
    Fill { set: Arg },
    /// `sigaddset(set, signal)`.
    Add { set: Arg, signal: Arg },
    /// `sigdelset(set, signal)`.
    Del { set: Arg, signal: Arg },
}

/// What a call may release of the locks its caller holds ([`Kind::releasing`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Releasing {
    /// Nothing (a condition wait holds its mutex again when it returns).
    Nothing,
    /// The lock `*args[lock]`.
    Lock(Arg),
    /// Any lock, as far as the model can tell.
    Any,
    /// What its stub's body releases: ask the body.
    Body,
}

/// The questions the front-end analyses ask of a kind, each an exhaustive `match`: a new kind
/// does not compile until it answers them.
impl Kind {
    /// Whether a call starts a thread, or runs a function it is given in a thread or in the
    /// caller: a create, a signal handler's installation, `pthread_once`, the entry harness. A
    /// stub's answer is its body's (callers look at it; `true` here, to be safe).
    pub fn may_start_thread(self) -> bool {
        match self {
            Kind::Fork { .. }
            | Kind::SignalHandler { .. }
            | Kind::SigAction { .. }
            | Kind::CallOnce { .. }
            | Kind::StartsEntries
            | Kind::Stub => true,
            Kind::Acquire { .. }
            | Kind::Release { .. }
            | Kind::TryAcquire { .. }
            | Kind::Wait { .. }
            | Kind::Join { .. }
            | Kind::WritesArg { .. }
            | Kind::ThreadPrivate
            | Kind::Alloc
            | Kind::Realloc { .. }
            | Kind::AllocInto { .. }
            | Kind::Free { .. }
            | Kind::Access { .. }
            | Kind::Copy { .. }
            | Kind::VarargsAccess { .. }
            | Kind::LongJmp
            | Kind::ReturnsArg { .. }
            | Kind::Unreachable
            | Kind::LockInit { .. }
            | Kind::NoEffect
            | Kind::SemInit { .. }
            | Kind::MutexType { .. }
            | Kind::BarrierInit { .. }
            | Kind::BarrierWait { .. }
            | Kind::SemWait { .. }
            | Kind::SemPost { .. }
            | Kind::Atomic(_) => false,
        }
    }

    /// Whether a call may store a value into the object its argument `i` points to (ending
    /// the object's life, `free`, stores none): what a list's links and heads need to know of
    /// the library functions handed a node ([`crate::analyses::unpacks`]).
    pub fn may_store_through(self, i: usize) -> bool {
        let at = |a: Arg| usize::from(a) == i;
        match self {
            Kind::Acquire { lock, .. }
            | Kind::Release { lock }
            | Kind::TryAcquire { lock, .. }
            | Kind::Wait { lock }
            | Kind::LockInit { lock, .. } => at(lock),
            Kind::Fork { id, .. } => id.is_some_and(at),
            Kind::Join { out, .. } => out.is_some_and(at),
            Kind::SigAction { old, .. } => at(old),
            Kind::CallOnce { control, .. } => at(control),
            Kind::WritesArg { arg } => at(arg),
            Kind::Realloc { old } => at(old),
            Kind::AllocInto { out } => at(out),
            Kind::Access { ptr, write } => write && at(ptr),
            Kind::Copy { dst, .. } => at(dst),
            Kind::VarargsAccess { write } => write,
            Kind::SemInit { sem, .. } | Kind::SemWait { sem } | Kind::SemPost { sem } => at(sem),
            Kind::BarrierInit { barrier, .. } | Kind::BarrierWait { barrier } => at(barrier),
            Kind::SignalHandler { .. }
            | Kind::ThreadPrivate
            | Kind::Alloc
            | Kind::Free { .. }
            | Kind::LongJmp
            | Kind::ReturnsArg { .. }
            | Kind::Unreachable
            | Kind::NoEffect => false,
            Kind::Stub | Kind::MutexType { .. } | Kind::Atomic(_) | Kind::StartsEntries => true,
        }
    }

    /// What a call may release of the locks its caller holds: a release its lock; a semaphore
    /// post (a mutex-like semaphore's release) or `pthread_once` (the control it holds) any
    /// lock; a stub what its body does.
    pub fn releasing(self) -> Releasing {
        match self {
            Kind::Release { lock } => Releasing::Lock(lock),
            Kind::SemPost { .. } | Kind::CallOnce { .. } => Releasing::Any,
            Kind::Stub => Releasing::Body,
            Kind::Acquire { .. }
            | Kind::TryAcquire { .. }
            | Kind::Wait { .. }
            | Kind::Fork { .. }
            | Kind::Join { .. }
            | Kind::SignalHandler { .. }
            | Kind::SigAction { .. }
            | Kind::WritesArg { .. }
            | Kind::ThreadPrivate
            | Kind::Alloc
            | Kind::Realloc { .. }
            | Kind::AllocInto { .. }
            | Kind::Free { .. }
            | Kind::Access { .. }
            | Kind::Copy { .. }
            | Kind::VarargsAccess { .. }
            | Kind::LongJmp
            | Kind::ReturnsArg { .. }
            | Kind::Unreachable
            | Kind::LockInit { .. }
            | Kind::NoEffect
            | Kind::SemInit { .. }
            | Kind::MutexType { .. }
            | Kind::BarrierInit { .. }
            | Kind::BarrierWait { .. }
            | Kind::SemWait { .. }
            | Kind::Atomic(_)
            | Kind::StartsEntries => Releasing::Nothing,
        }
    }
}

/// Whether a mutex of the kind `value` (a constant given to `pthread_mutexattr_settype`, in
/// glibc's numbering), locked again by the thread holding it, may return without holding it
/// once more: an error-checking mutex (2) returns `EDEADLK`, and an unknown kind may be one.
/// A normal (0, also the default), recursive (1) or adaptive (3) mutex blocks forever or
/// counts the holds.
pub fn relock_may_fail(value: Option<i64>) -> bool {
    !matches!(value, Some(0 | 1 | 3))
}

/// What a try-lock returns when it acquired its lock: 0 (POSIX's try-locks, which return an
/// error code otherwise), or any nonzero value (a `bool` "got it").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TrySuccess {
    Zero,
    Nonzero,
}

/// What an atomic builtin does to the object its pointer argument points to.
///
/// C11 5.1.2.4p25: two accesses of one location race unless both are atomic, or one happens
/// before the other. The lowering brackets the accesses an atomic operation makes of `*ptr`
/// with the calls of [`ATOMIC_ACCESS`]'s begin and end, which the stubs model as taking and
/// releasing one lock that nothing else takes: two atomic accesses then always hold a common
/// lock, an atomic and a plain access never do through it, and no other access is protected,
/// so the consistent-correlation check decides exactly C11's rule. Every other argument
/// (the value stored, the expected value a compare-exchange reads and writes back) is an
/// ordinary access outside the bracket.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    pub op: AtomicOp,
    /// The argument pointing to the atomic object.
    pub ptr: Arg,
    /// The argument holding the value stored (`None`: a constant, as `__atomic_clear` stores).
    pub value: Option<Arg>,
    /// The value is passed by address (`__atomic_store(p, &v, order)`).
    pub by_ref: bool,
    /// The argument the old value is stored through (`__atomic_load(p, &ret, order)`).
    pub out: Option<Arg>,
}

/// The shape of an atomic operation on its object.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Reads the object and returns its value.
    Load,
    /// Writes the value.
    Store,
    /// Reads the object, writes the value and returns the old value (`exchange`,
    /// `test_and_set`, `__sync_val_compare_and_swap`).
    Exchange,
    /// Reads the object and writes it combined with the value (`fetch_or`, `and_fetch`).
    Update,
    /// Reads the object and writes it plus the value (`fetch_add`, `add_fetch`): an
    /// [`AtomicOp::Update`] whose addition the lowering keeps ([`crate::ir::ArithOp::Add`]),
    /// for the claims of a shared counter ([`crate::analyses::claims`]).
    Add,
    /// `compare_exchange`: reads the object and `*args[expected]`, may write the value to the
    /// object or the old value to `*args[expected]`, and returns whether it swapped.
    CompareExchange { expected: Arg },
    /// `__sync_bool_compare_and_swap`: reads the object, may write the value, returns a flag.
    CompareSwap,
}

/// The functions whose calls bracket an atomic access, and the lock their stubs take.
pub use table::ATOMIC_ACCESS;

/// Everything the model says about one function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    pub kind: Kind,
    /// Never returns (`exit`, `abort`, `pthread_exit`, `longjmp`): the path ends at the call.
    pub noreturn: bool,
    /// Only reads or writes the memory its pointer arguments point to, keeping no copy of the
    /// pointers and returning none: fresh memory passed to it stays unpublished (uniqueness,
    /// paper §3.2).
    pub non_capturing: bool,
    /// Returns fresh memory no other thread can reach yet (`malloc`, `strdup`).
    pub fresh_result: bool,
    /// Synchronises threads in a way the analysis does not follow (a semaphore, a barrier):
    /// accesses it orders may still be reported, and reports list the functions called.
    pub unordered: bool,
    /// Fills its first argument, a `va_list`, with variadic arguments (`va_start`, `va_copy`):
    /// what is handed that list is handed those arguments.
    pub fills_va_list: bool,
}

impl Spec {
    /// A spec of `kind` with no other property.
    pub const fn new(kind: Kind) -> Spec {
        Spec {
            kind,
            noreturn: false,
            non_capturing: false,
            fresh_result: false,
            unordered: false,
            fills_va_list: false,
        }
    }
}

/// One row of the model: a function name and what it does.
#[derive(Copy, Clone, Debug)]
pub struct Row {
    pub name: &'static str,
    pub spec: Spec,
}

impl Row {
    const fn new(name: &'static str, kind: Kind) -> Row {
        Row {
            name,
            spec: Spec::new(kind),
        }
    }

    const fn noreturn(mut self) -> Row {
        self.spec.noreturn = true;
        self
    }

    const fn non_capturing(mut self) -> Row {
        self.spec.non_capturing = true;
        self
    }

    const fn fresh_result(mut self) -> Row {
        self.spec.fresh_result = true;
        self
    }

    const fn unordered(mut self) -> Row {
        self.spec.unordered = true;
        self
    }

    const fn fills_va_list(mut self) -> Row {
        self.spec.fills_va_list = true;
        self
    }
}

/// What a typedef name stands for, whatever the system headers define it as.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeModel {
    /// A lock object (paper §3: a `pthread_mutex_t` is a lock with label ℓ).
    Lock(LockKind),
    /// A condition variable or a barrier: synchronisation that holds no data, no labels.
    Cond,
    /// A `va_list`: a pointer to the variadic arguments.
    VaList,
}

/// The name a program uses for a type the model recognises (the first of its spellings).
pub fn typedef_name(t: TypeModel) -> &'static str {
    table::TYPES
        .iter()
        .find(|&&(_, u)| u == t)
        .map_or("<type>", |&(name, _)| name)
}

/// The known functions and types, by name.
#[derive(Clone, Debug)]
pub struct Model {
    functions: FxHashMap<String, Spec>,
    /// Specs of every function whose name starts with a prefix (`pthread_attr_…`), tried in
    /// order after the exact names.
    prefixes: Vec<(String, Spec)>,
    types: FxHashMap<String, TypeModel>,
    /// The rows of the user's configuration, as given (their specs are also in `functions`).
    configured: Vec<Configured>,
    /// The role of each configured function, by name (lookups only).
    roles: FxHashMap<String, Role>,
}

impl Model {
    /// The model locksmith ships with: POSIX threads, allocation, the intrinsics.
    pub fn builtin() -> Arc<Model> {
        static BUILTIN: OnceLock<Arc<Model>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let rows = table::FUNCTIONS
                    .iter()
                    .copied()
                    .chain(Intrinsic::ALL.iter().map(|i| i.row()));
                Arc::new(Model {
                    functions: rows.map(|r| (r.name.to_string(), r.spec)).collect(),
                    prefixes: table::PREFIXES
                        .iter()
                        .map(|r| (r.name.to_string(), r.spec))
                        .collect(),
                    types: table::TYPES
                        .iter()
                        .map(|&(name, t)| (name.to_string(), t))
                        .collect(),
                    configured: Vec::new(),
                    roles: FxHashMap::default(),
                })
            })
            .clone()
    }

    /// The built-in model with the user's rows layered over it: a configured function's row
    /// replaces a built-in row of the same name, and a later row for a name replaces an earlier
    /// one. Each run builds its own, so nothing one run configures is seen by another.
    pub fn with_configured(rows: &[Configured]) -> Arc<Model> {
        let builtin = Model::builtin();
        if rows.is_empty() {
            return builtin;
        }
        let mut model = Model::clone(&builtin);
        for row in rows {
            model.functions.insert(row.name.clone(), row.role.spec());
            model.roles.insert(row.name.clone(), row.role);
        }
        model.configured = rows.to_vec();
        Arc::new(model)
    }

    /// Whether `name` is one of locksmith's own functions (the stubs' intrinsics, the calls
    /// bracketing atomic accesses), which a configuration may not redefine.
    pub fn is_intrinsic(name: &str) -> bool {
        let (atomic_begin, atomic_end, atomic_lock) = table::ATOMIC_ACCESS;
        Intrinsic::from_name(name).is_some()
            || [atomic_begin, atomic_end, atomic_lock].contains(&name)
    }

    /// The role the user's configuration gives `name`, if it names it.
    pub fn configured(&self, name: &str) -> Option<Role> {
        self.roles.get(name).copied()
    }

    /// The rows of the user's configuration, in the order given.
    pub fn configured_rows(&self) -> &[Configured] {
        &self.configured
    }

    /// What the model says about the library function `name`, if anything.
    pub fn function(&self, name: &str) -> Option<Spec> {
        if let Some(&spec) = self.functions.get(name) {
            return Some(spec);
        }
        self.prefixes
            .iter()
            .find(|(prefix, _)| name.starts_with(prefix.as_str()))
            .map(|&(_, spec)| spec)
    }

    /// What the typedef name `name` stands for, if the model knows it.
    pub fn typedef(&self, name: &str) -> Option<TypeModel> {
        self.types.get(name).copied()
    }

    /// For a call of `name` that runs as an atomic section (the verification tasks' convention,
    /// [`table::ATOMIC_SECTION`]), the functions to call just before and just after it.
    pub fn atomic_section(&self, name: &str) -> Option<(&'static str, &'static str)> {
        let (prefix, begin, end) = table::ATOMIC_SECTION;
        (name.starts_with(prefix) && name != begin && name != end).then_some((begin, end))
    }

    /// Which signal a call of `name` sends to its own process, if it sends one.
    pub fn sends_signal(&self, name: &str) -> Option<Sends> {
        table::SIGNAL_SENDERS
            .iter()
            .find(|(sender, _)| *sender == name)
            .map(|&(_, sends)| sends)
    }

    /// What a call of `name` does to the blocked signals or to a signal set, if anything.
    pub fn mask_call(&self, name: &str) -> Option<MaskCall> {
        table::SIGNAL_MASKS
            .iter()
            .find(|(f, _)| *f == name)
            .map(|&(_, call)| call)
    }

    /// Whether `name` is a function that waits (or ends the path) until its argument holds
    /// (`__VERIFIER_assume`).
    pub fn is_assume(&self, name: &str) -> bool {
        table::ASSUMES.contains(&name)
    }

    /// Every name the model knows (functions, prefixes and types), sorted: for tests that check
    /// no other file spells one.
    pub fn names(&self) -> Vec<&str> {
        let (prefix, begin, end) = table::ATOMIC_SECTION;
        let (atomic_begin, atomic_end, atomic_lock) = table::ATOMIC_ACCESS;
        let mut names: Vec<&str> = self
            .functions
            .keys()
            .chain(self.prefixes.iter().map(|(p, _)| p))
            .chain(self.types.keys())
            .map(String::as_str)
            .chain([prefix, begin, end, atomic_begin, atomic_end, atomic_lock])
            .chain(table::ASSUMES.iter().copied())
            .chain(table::SIGNAL_SENDERS.iter().map(|&(name, _)| name))
            .chain(table::SIGNAL_MASKS.iter().map(|&(name, _)| name))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_unique() {
        let mut names: Vec<&str> = table::FUNCTIONS.iter().map(|r| r.name).collect();
        names.extend(Intrinsic::ALL.iter().map(|i| i.name()));
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a function has two rows");
    }

    #[test]
    fn exact_rows_win_over_prefixes() {
        let m = Model::builtin();
        assert!(matches!(
            m.function("pthread_mutex_lock").map(|s| s.kind),
            Some(Kind::Acquire { lock: 0, .. })
        ));
        assert_eq!(
            m.function("pthread_attr_setstacksize").map(|s| s.kind),
            Some(Kind::NoEffect)
        );
        assert_eq!(m.function("frobnicate"), None);
    }

    #[test]
    fn configured_rows_win_in_their_own_model_only() {
        let unlock = Configured {
            name: "pthread_mutex_lock".into(),
            role: Role::Release { lock: 0 },
            args: Vec::new(),
            at: None,
        };
        let pool = Configured {
            name: "pool_get".into(),
            role: Role::Allocator,
            args: Vec::new(),
            at: None,
        };
        let m = Model::with_configured(&[unlock, pool]);
        assert_eq!(
            m.function("pthread_mutex_lock").map(|s| s.kind),
            Some(Kind::Release { lock: 0 })
        );
        assert!(m.function("pool_get").is_some_and(|s| s.fresh_result));
        assert_eq!(m.configured("pool_get"), Some(Role::Allocator));
        assert_eq!(m.configured_rows().len(), 2);
        // The built-in model, and so every other run, is unchanged.
        let builtin = Model::builtin();
        assert!(matches!(
            builtin.function("pthread_mutex_lock").map(|s| s.kind),
            Some(Kind::Acquire { lock: 0, .. })
        ));
        assert_eq!(builtin.function("pool_get"), None);
        assert_eq!(builtin.configured("pool_get"), None);
        assert!(Arc::ptr_eq(&Model::with_configured(&[]), &builtin));
        assert!(Model::is_intrinsic(Intrinsic::Acquire.name()));
        assert!(!Model::is_intrinsic("pool_get"));
    }

    #[test]
    fn intrinsics_round_trip() {
        for i in Intrinsic::ALL {
            assert_eq!(Intrinsic::from_name(i.name()), Some(i));
            assert!(Model::builtin().function(i.name()).is_some());
        }
    }
}
