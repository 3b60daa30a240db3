//! The rows of the built-in model: POSIX threads, allocation, program exit and jumps, the libc
//! functions whose stubs keep no copy of their pointer arguments, and the lock typedefs.
//!
//! One row per function; the flags after a row are [`Spec`](super::Spec)'s. Functions modelled
//! only by a C stub need a row just for a flag.

use super::{Atomic, AtomicOp, Kind, LockMode, Row, TrySuccess, TypeModel};
use crate::ir::ctypes::LockKind;

use Kind::*;
use LockMode::{Exclusive, Shared};

/// Acquires `*args[0]` exclusively.
const LOCK: Kind = Acquire {
    lock: 0,
    mode: Exclusive,
    waits: true,
};
/// Acquires `*args[0]` as a reader.
const READ_LOCK: Kind = Acquire {
    lock: 0,
    mode: Shared,
    waits: true,
};
const UNLOCK: Kind = Release { lock: 0 };
const TRY_LOCK: Kind = TryAcquire {
    lock: 0,
    mode: Exclusive,
    success: TrySuccess::Zero,
};
const TRY_READ_LOCK: Kind = TryAcquire {
    lock: 0,
    mode: Shared,
    success: TrySuccess::Zero,
};

/// An atomic operation on `*args[0]` with the value in `args[value]`.
const fn atomic(op: AtomicOp, value: Option<u8>) -> Kind {
    Kind::Atomic(Atomic {
        op,
        ptr: 0,
        value,
        by_ref: false,
        out: None,
    })
}

/// An atomic operation of gcc's generic forms, which pass the value by address in
/// `args[value]` and store the old value through `args[out]`.
const fn atomic_by_ref(op: AtomicOp, value: Option<u8>, out: Option<u8>) -> Kind {
    Kind::Atomic(Atomic {
        op,
        ptr: 0,
        value,
        by_ref: true,
        out,
    })
}

const ATOMIC_LOAD: Kind = atomic(AtomicOp::Load, None);
const ATOMIC_STORE: Kind = atomic(AtomicOp::Store, Some(1));
const ATOMIC_UPDATE: Kind = atomic(AtomicOp::Update, Some(1));
const ATOMIC_EXCHANGE: Kind = atomic(AtomicOp::Exchange, Some(1));
const ATOMIC_CAS: Kind = atomic(AtomicOp::CompareExchange { expected: 1 }, Some(2));

/// Every known function, one row each.
pub(super) const FUNCTIONS: &[Row] = &[
    // Locks (paper §3.1: Acquire(ℓ) and Release(ℓ) state kinds).
    Row::new("pthread_mutex_lock", LOCK),
    Row::new("pthread_mutex_timedlock", TRY_LOCK),
    Row::new("pthread_spin_lock", LOCK),
    Row::new("pthread_rwlock_wrlock", LOCK),
    Row::new("pthread_rwlock_timedwrlock", TRY_LOCK),
    Row::new("pthread_rwlock_rdlock", READ_LOCK),
    Row::new("pthread_rwlock_timedrdlock", TRY_READ_LOCK),
    Row::new("pthread_mutex_unlock", UNLOCK),
    Row::new("pthread_spin_unlock", UNLOCK),
    Row::new("pthread_rwlock_unlock", UNLOCK),
    Row::new("pthread_mutex_trylock", TRY_LOCK),
    Row::new("pthread_spin_trylock", TRY_LOCK),
    Row::new("pthread_rwlock_trywrlock", TRY_LOCK),
    Row::new("pthread_rwlock_tryrdlock", TRY_READ_LOCK),
    Row::new("pthread_cond_wait", Wait { lock: 1 }),
    Row::new("pthread_cond_timedwait", Wait { lock: 1 }),
    Row::new("pthread_mutex_init", LockInit { lock: 0, attr: 1 }).non_capturing(),
    Row::new("pthread_mutex_destroy", NoEffect).non_capturing(),
    Row::new("pthread_spin_init", NoEffect).non_capturing(),
    Row::new("pthread_spin_destroy", NoEffect).non_capturing(),
    Row::new("pthread_rwlock_init", NoEffect).non_capturing(),
    Row::new("pthread_rwlock_destroy", NoEffect).non_capturing(),
    Row::new("pthread_cond_init", NoEffect).non_capturing(),
    Row::new("pthread_cond_destroy", NoEffect).non_capturing(),
    Row::new(
        "pthread_barrier_init",
        BarrierInit {
            barrier: 0,
            count: 2,
        },
    )
    .non_capturing(),
    Row::new("pthread_barrier_destroy", NoEffect).non_capturing(),
    Row::new("pthread_barrier_wait", BarrierWait { barrier: 0 }).non_capturing(),
    // Semaphores: one initialised to 1 and posted only after a wait by the same thread is a
    // mutex; the others order nothing.
    Row::new("sem_init", SemInit { sem: 0, value: 2 }).non_capturing(),
    Row::new("pthread_mutexattr_settype", MutexType { kind: 1 }).non_capturing(),
    Row::new("sem_wait", SemWait { sem: 0 }),
    Row::new("sem_post", SemPost { sem: 0 }),
    Row::new("sem_trywait", Stub).unordered(),
    Row::new("sem_timedwait", Stub).unordered(),
    Row::new("pthread_cond_signal", NoEffect),
    Row::new("pthread_cond_broadcast", NoEffect),
    // Threads (§3.2: forks), joins, signal handlers as threads.
    Row::new(
        "pthread_create",
        Fork {
            id: Some(0),
            func: 2,
            arg: Some(3),
        },
    ),
    Row::new(
        "pthread_join",
        Join {
            id: 0,
            out: Some(1),
        },
    ),
    Row::new(
        "pthread_once",
        CallOnce {
            control: 0,
            func: 1,
        },
    ),
    Row::new("pthread_key_create", WritesArg { arg: 0 }),
    Row::new("pthread_getspecific", ThreadPrivate),
    Row::new("pthread_setspecific", NoEffect),
    Row::new("pthread_key_delete", NoEffect),
    Row::new("pthread_self", NoEffect),
    Row::new("pthread_equal", NoEffect),
    Row::new("pthread_detach", NoEffect),
    Row::new("pthread_cancel", NoEffect),
    Row::new("pthread_kill", NoEffect),
    Row::new("pthread_sigmask", NoEffect),
    Row::new("pthread_setcancelstate", NoEffect),
    Row::new("pthread_setcanceltype", NoEffect),
    Row::new("pthread_testcancel", NoEffect),
    Row::new("pthread_setname_np", NoEffect),
    Row::new("pthread_yield", NoEffect),
    Row::new("sched_yield", NoEffect),
    Row::new("signal", SignalHandler { handler: 1 }),
    Row::new("bsd_signal", SignalHandler { handler: 1 }),
    Row::new("sysv_signal", SignalHandler { handler: 1 }),
    Row::new("sigaction", SigAction { act: 1, old: 2 }),
    // Atomic operations (C11 7.17.7 through the `<stdatomic.h>` shim, and gcc's builtins).
    Row::new("__atomic_load_n", ATOMIC_LOAD),
    Row::new(
        "__atomic_load",
        atomic_by_ref(AtomicOp::Load, None, Some(1)),
    ),
    Row::new("__atomic_store_n", ATOMIC_STORE),
    Row::new(
        "__atomic_store",
        atomic_by_ref(AtomicOp::Store, Some(1), None),
    ),
    Row::new("__atomic_exchange_n", ATOMIC_EXCHANGE),
    Row::new(
        "__atomic_exchange",
        atomic_by_ref(AtomicOp::Exchange, Some(1), Some(2)),
    ),
    Row::new("__atomic_compare_exchange_n", ATOMIC_CAS),
    Row::new(
        "__atomic_compare_exchange",
        atomic_by_ref(AtomicOp::CompareExchange { expected: 1 }, Some(2), None),
    ),
    Row::new("__atomic_add_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_sub_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_and_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_xor_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_or_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_nand_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_add", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_sub", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_and", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_xor", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_or", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_nand", ATOMIC_UPDATE),
    Row::new("__atomic_test_and_set", atomic(AtomicOp::Exchange, None)),
    Row::new("__atomic_clear", atomic(AtomicOp::Store, None)),
    Row::new("__atomic_thread_fence", NoEffect),
    Row::new("__atomic_signal_fence", NoEffect),
    Row::new("__atomic_always_lock_free", NoEffect),
    Row::new("__atomic_is_lock_free", NoEffect),
    Row::new("__sync_fetch_and_add", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_sub", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_or", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_and", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_xor", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_nand", ATOMIC_UPDATE),
    Row::new("__sync_add_and_fetch", ATOMIC_UPDATE),
    Row::new("__sync_sub_and_fetch", ATOMIC_UPDATE),
    Row::new("__sync_or_and_fetch", ATOMIC_UPDATE),
    Row::new("__sync_and_and_fetch", ATOMIC_UPDATE),
    Row::new("__sync_xor_and_fetch", ATOMIC_UPDATE),
    Row::new("__sync_nand_and_fetch", ATOMIC_UPDATE),
    Row::new(
        "__sync_val_compare_and_swap",
        atomic(AtomicOp::Exchange, Some(2)),
    ),
    Row::new(
        "__sync_bool_compare_and_swap",
        atomic(AtomicOp::CompareSwap, Some(2)),
    ),
    Row::new("__sync_lock_test_and_set", ATOMIC_EXCHANGE),
    Row::new("__sync_lock_release", atomic(AtomicOp::Store, None)),
    Row::new("__sync_synchronize", NoEffect),
    // Allocation.
    Row::new("malloc", Alloc).fresh_result(),
    Row::new("calloc", Alloc).fresh_result(),
    Row::new("valloc", Alloc).fresh_result(),
    Row::new("pvalloc", Alloc).fresh_result(),
    Row::new("aligned_alloc", Alloc).fresh_result(),
    Row::new("memalign", Alloc).fresh_result(),
    Row::new("realloc", Realloc { old: 0 }),
    Row::new("reallocarray", Realloc { old: 0 }),
    Row::new("posix_memalign", AllocInto { out: 0 }),
    Row::new("free", Free { ptr: 0 }).non_capturing(),
    Row::new("strdup", Stub).fresh_result(),
    Row::new("strndup", Stub).fresh_result(),
    Row::new("__strdup", Stub).fresh_result(),
    Row::new("__strndup", Stub).fresh_result(),
    // Leaving the path: exits and jumps.
    Row::new("exit", NoEffect).noreturn(),
    Row::new("_exit", NoEffect).noreturn(),
    Row::new("_Exit", NoEffect).noreturn(),
    Row::new("quick_exit", NoEffect).noreturn(),
    Row::new("abort", NoEffect).noreturn(),
    Row::new("pthread_exit", NoEffect).noreturn(),
    Row::new("__assert_fail", NoEffect).noreturn(),
    Row::new("__builtin_trap", NoEffect).noreturn(),
    // Verification tasks end a path that reaches an error with these (when only declared).
    Row::new("reach_error", NoEffect).noreturn(),
    Row::new("__VERIFIER_error", NoEffect).noreturn(),
    Row::new("__builtin_unreachable", Unreachable),
    Row::new("err", Stub).noreturn(),
    Row::new("errx", Stub).noreturn(),
    Row::new("verr", Stub).noreturn(),
    Row::new("verrx", Stub).noreturn(),
    Row::new("longjmp", LongJmp).noreturn(),
    Row::new("siglongjmp", LongJmp).noreturn(),
    Row::new("_longjmp", LongJmp).noreturn(),
    Row::new("setjmp", NoEffect),
    Row::new("_setjmp", NoEffect),
    Row::new("sigsetjmp", NoEffect),
    Row::new("__sigsetjmp", NoEffect),
    Row::new("__builtin_expect", ReturnsArg { arg: 0 }),
    // Stubbed functions that keep no copy of their pointer arguments (uniqueness, §3.2).
    Row::new("memcpy", Stub).non_capturing(),
    Row::new("memmove", Stub).non_capturing(),
    Row::new("memset", Stub).non_capturing(),
    Row::new("memcmp", Stub).non_capturing(),
    Row::new("bzero", Stub).non_capturing(),
    Row::new("explicit_bzero", Stub).non_capturing(),
    Row::new("strlen", Stub).non_capturing(),
    Row::new("strnlen", Stub).non_capturing(),
    Row::new("strcpy", Stub).non_capturing(),
    Row::new("strncpy", Stub).non_capturing(),
    Row::new("strcat", Stub).non_capturing(),
    Row::new("strncat", Stub).non_capturing(),
    Row::new("strcmp", Stub).non_capturing(),
    Row::new("strncmp", Stub).non_capturing(),
    Row::new("strcasecmp", Stub).non_capturing(),
    Row::new("strncasecmp", Stub).non_capturing(),
    Row::new("strcoll", Stub).non_capturing(),
    Row::new("sprintf", Stub).non_capturing(),
    Row::new("snprintf", Stub).non_capturing(),
    Row::new("vsprintf", Stub).non_capturing(),
    Row::new("vsnprintf", Stub).non_capturing(),
    Row::new("printf", Stub).non_capturing(),
    Row::new("fprintf", Stub).non_capturing(),
    Row::new("dprintf", Stub).non_capturing(),
    Row::new("puts", Stub).non_capturing(),
    Row::new("fputs", Stub).non_capturing(),
    Row::new("fgets", Stub).non_capturing(),
    Row::new("fread", Stub).non_capturing(),
    Row::new("fwrite", Stub).non_capturing(),
    Row::new("read", Stub).non_capturing(),
    Row::new("write", Stub).non_capturing(),
    Row::new("pread", Stub).non_capturing(),
    Row::new("pwrite", Stub).non_capturing(),
    Row::new("recv", Stub).non_capturing(),
    Row::new("send", Stub).non_capturing(),
    Row::new("atoi", Stub).non_capturing(),
    Row::new("atol", Stub).non_capturing(),
    Row::new("atoll", Stub).non_capturing(),
    Row::new("sscanf", Stub).non_capturing(),
    Row::new("clock_gettime", Stub).non_capturing(),
    Row::new("gettimeofday", Stub).non_capturing(),
];

/// Families of functions known by a prefix of their name, tried after [`FUNCTIONS`].
pub(super) const PREFIXES: &[Row] = &[
    Row::new("__builtin_", NoEffect),
    Row::new("pthread_attr_", NoEffect),
    Row::new("pthread_mutexattr_", NoEffect),
    Row::new("pthread_condattr_", NoEffect),
    Row::new("pthread_rwlockattr_", NoEffect),
    Row::new("pthread_barrierattr_", NoEffect),
];

/// The convention of verification tasks that a function whose name starts with the first string
/// runs atomically, as if between calls of the other two (which the stubs model as taking and
/// releasing one mutex of their own).
pub(super) const ATOMIC_SECTION: (&str, &str, &str) = (
    "__VERIFIER_atomic_",
    "__VERIFIER_atomic_begin",
    "__VERIFIER_atomic_end",
);

/// Functions that block (or end the path) until their argument is true: inside an atomic
/// section, `assume(v == 0); v = 1;` waits for a flag and takes it, which is a lock.
pub(super) const ASSUMES: &[&str] = &["__VERIFIER_assume", "assume_abort_if_not"];

/// The calls the lowering brackets an atomic access with ([`super::Atomic`]), and the lock
/// their stubs (`libc-stubs/atomic.c`) take, which reports show as "atomic" instead of a lock.
pub const ATOMIC_ACCESS: (&str, &str, &str) = (
    "__locksmith_atomic_begin",
    "__locksmith_atomic_end",
    "__locksmith_atomic",
);

/// Typedef names the analysis recognises whatever the system headers define them as.
pub(super) const TYPES: &[(&str, TypeModel)] = &[
    ("pthread_mutex_t", TypeModel::Lock(LockKind::Mutex)),
    ("pthread_spinlock_t", TypeModel::Lock(LockKind::Spin)),
    ("pthread_rwlock_t", TypeModel::Lock(LockKind::RwLock)),
    ("pthread_cond_t", TypeModel::Cond),
    // A barrier orders the phases of the threads that wait on it, which the analysis does not
    // follow (accesses in different phases may still be reported); the object itself is
    // synchronisation, never data.
    ("pthread_barrier_t", TypeModel::Cond),
    // A semaphore is synchronisation, never data; one that behaves as a mutex is a lock.
    ("sem_t", TypeModel::Lock(LockKind::Mutex)),
    ("__builtin_va_list", TypeModel::VaList),
    ("va_list", TypeModel::VaList),
    ("__gnuc_va_list", TypeModel::VaList),
];
