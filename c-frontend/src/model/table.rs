//! The rows of the built-in model: POSIX threads, allocation, program exit and jumps, the libc
//! functions whose stubs keep no copy of their pointer arguments, and the lock typedefs.
//!
//! One row per function; the flags after a row are [`Spec`](super::Spec)'s. Functions modelled
//! only by a C stub need a row just for a flag.

use super::{Atomic, AtomicOp, Kind, LockMode, MaskCall, Row, Sends, TrySuccess, TypeModel};
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
/// GLib's `g_mutex_trylock`: TRUE when it took `*args[0]`.
const G_TRY_LOCK: Kind = TryAcquire {
    lock: 0,
    mode: Exclusive,
    success: TrySuccess::Nonzero,
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
const ATOMIC_ADD: Kind = atomic(AtomicOp::Add, Some(1));
const ATOMIC_EXCHANGE: Kind = atomic(AtomicOp::Exchange, Some(1));
const ATOMIC_CAS: Kind = atomic(AtomicOp::CompareExchange { expected: 1 }, Some(2));

/// Reads the object `*args[0]` (`nan`'s string).
const READS_FIRST: Kind = Access {
    ptr: 0,
    write: false,
};

/// Every known function, one row each.
pub(super) const FUNCTIONS: &[Row] = &[
    // Locks (paper §3.1: Acquire(ℓ) and Release(ℓ) state kinds). No lock, condition or
    // semaphore call keeps a copy of the address it is given: a fresh object whose mutex is
    // taken stays unpublished, and a wrapper that only locks keeps nothing.
    Row::new("pthread_mutex_lock", LOCK).non_capturing(),
    Row::new("pthread_mutex_timedlock", TRY_LOCK).non_capturing(),
    Row::new("pthread_spin_lock", LOCK).non_capturing(),
    Row::new("pthread_rwlock_wrlock", LOCK).non_capturing(),
    Row::new("pthread_rwlock_timedwrlock", TRY_LOCK).non_capturing(),
    Row::new("pthread_rwlock_rdlock", READ_LOCK).non_capturing(),
    Row::new("pthread_rwlock_timedrdlock", TRY_READ_LOCK).non_capturing(),
    Row::new("pthread_mutex_unlock", UNLOCK).non_capturing(),
    Row::new("pthread_spin_unlock", UNLOCK).non_capturing(),
    Row::new("pthread_rwlock_unlock", UNLOCK).non_capturing(),
    Row::new("pthread_mutex_trylock", TRY_LOCK).non_capturing(),
    Row::new("pthread_spin_trylock", TRY_LOCK).non_capturing(),
    Row::new("pthread_rwlock_trywrlock", TRY_LOCK).non_capturing(),
    Row::new("pthread_rwlock_tryrdlock", TRY_READ_LOCK).non_capturing(),
    Row::new("pthread_cond_wait", Wait { lock: 1 }).non_capturing(),
    Row::new("pthread_cond_timedwait", Wait { lock: 1 }).non_capturing(),
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
    Row::new("sem_wait", SemWait { sem: 0 }).non_capturing(),
    Row::new("sem_post", SemPost { sem: 0 }).non_capturing(),
    Row::new("sem_trywait", Stub).unordered(),
    Row::new("sem_timedwait", Stub).unordered(),
    Row::new("pthread_cond_signal", NoEffect).non_capturing(),
    Row::new("pthread_cond_broadcast", NoEffect).non_capturing(),
    // C11's <threads.h>: the same kinds; its calls return thrd_success, 0, when they succeed.
    Row::new("mtx_lock", LOCK).non_capturing(),
    Row::new("mtx_unlock", UNLOCK).non_capturing(),
    Row::new("mtx_trylock", TRY_LOCK).non_capturing(),
    Row::new("mtx_timedlock", TRY_LOCK).non_capturing(),
    Row::new("mtx_init", LockInit { lock: 0, attr: 1 }).non_capturing(),
    Row::new("mtx_destroy", NoEffect).non_capturing(),
    Row::new("cnd_wait", Wait { lock: 1 }).non_capturing(),
    Row::new("cnd_timedwait", Wait { lock: 1 }).non_capturing(),
    Row::new("cnd_signal", NoEffect).non_capturing(),
    Row::new("cnd_broadcast", NoEffect).non_capturing(),
    Row::new("cnd_init", NoEffect).non_capturing(),
    Row::new("cnd_destroy", NoEffect).non_capturing(),
    // GLib's locks are these kinds too (`GMutex`, `GRWLock` and `GCond` are in [`TYPES`]); its
    // try-locks return TRUE when they take the lock.
    Row::new("g_mutex_lock", LOCK).non_capturing(),
    Row::new("g_mutex_unlock", UNLOCK).non_capturing(),
    Row::new("g_mutex_trylock", G_TRY_LOCK).non_capturing(),
    Row::new("g_mutex_init", NoEffect).non_capturing(),
    Row::new("g_mutex_clear", NoEffect).non_capturing(),
    Row::new("g_rw_lock_writer_lock", LOCK).non_capturing(),
    Row::new("g_rw_lock_writer_unlock", UNLOCK).non_capturing(),
    Row::new("g_rw_lock_writer_trylock", G_TRY_LOCK).non_capturing(),
    Row::new("g_rw_lock_reader_lock", READ_LOCK).non_capturing(),
    Row::new("g_rw_lock_reader_unlock", UNLOCK).non_capturing(),
    Row::new(
        "g_rw_lock_reader_trylock",
        TryAcquire {
            lock: 0,
            mode: Shared,
            success: TrySuccess::Nonzero,
        },
    )
    .non_capturing(),
    Row::new("g_rw_lock_init", NoEffect).non_capturing(),
    Row::new("g_rw_lock_clear", NoEffect).non_capturing(),
    Row::new("g_cond_wait", Wait { lock: 1 }).non_capturing(),
    Row::new("g_cond_wait_until", Wait { lock: 1 }).non_capturing(),
    Row::new("g_cond_signal", NoEffect).non_capturing(),
    Row::new("g_cond_broadcast", NoEffect).non_capturing(),
    Row::new("g_cond_init", NoEffect).non_capturing(),
    Row::new("g_cond_clear", NoEffect).non_capturing(),
    // Threads (§3.2: forks), joins, signal handlers as threads.
    Row::new(
        "pthread_create",
        Fork {
            id: Some(0),
            func: 2,
            arg: Some(3),
        },
    ),
    // GLib's threads: the handle is the result, which no join here can match, so a GLib
    // thread is never joined (`g_thread_join` stays code locksmith cannot see: it hands the
    // thread's result back).
    Row::new(
        "g_thread_new",
        Fork {
            id: None,
            func: 1,
            arg: Some(2),
        },
    ),
    Row::new(
        "g_thread_try_new",
        Fork {
            id: None,
            func: 1,
            arg: Some(2),
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
    Row::new(
        "thrd_create",
        Fork {
            id: Some(0),
            func: 1,
            arg: Some(2),
        },
    ),
    Row::new(
        "thrd_join",
        Join {
            id: 0,
            out: Some(1),
        },
    ),
    Row::new(
        "call_once",
        CallOnce {
            control: 0,
            func: 1,
        },
    ),
    Row::new("thrd_detach", NoEffect),
    Row::new("thrd_current", NoEffect),
    Row::new("thrd_equal", NoEffect),
    Row::new("thrd_yield", NoEffect),
    Row::new("tss_create", WritesArg { arg: 0 }),
    Row::new("tss_get", ThreadPrivate),
    Row::new("tss_set", NoEffect),
    Row::new("tss_delete", NoEffect),
    Row::new("pthread_key_create", WritesArg { arg: 0 }),
    Row::new("pthread_getspecific", ThreadPrivate),
    Row::new("pthread_setspecific", NoEffect),
    Row::new("pthread_key_delete", NoEffect),
    Row::new("pthread_self", NoEffect),
    Row::new("pthread_equal", NoEffect),
    Row::new("pthread_detach", NoEffect),
    Row::new("pthread_cancel", NoEffect),
    Row::new("pthread_mutex_consistent", NoEffect),
    Row::new("pthread_sigqueue", NoEffect),
    // Scheduling and affinity: kernel state, and the caller's parameters or CPU set.
    Row::new(
        "pthread_setschedparam",
        Access {
            ptr: 2,
            write: false,
        },
    ),
    Row::new(
        "pthread_setaffinity_np",
        Access {
            ptr: 2,
            write: false,
        },
    ),
    Row::new("pthread_getaffinity_np", WritesArg { arg: 2 }),
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
    Row::new("__atomic_add_fetch", ATOMIC_ADD),
    Row::new("__atomic_sub_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_and_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_xor_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_or_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_nand_fetch", ATOMIC_UPDATE),
    Row::new("__atomic_fetch_add", ATOMIC_ADD),
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
    Row::new("__sync_fetch_and_add", ATOMIC_ADD),
    Row::new("__sync_fetch_and_sub", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_or", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_and", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_xor", ATOMIC_UPDATE),
    Row::new("__sync_fetch_and_nand", ATOMIC_UPDATE),
    Row::new("__sync_add_and_fetch", ATOMIC_ADD),
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
    Row::new("thrd_exit", NoEffect).noreturn(),
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
    // glibc 2.34+ expands `pthread_cleanup_push` into this name (an asm alias of `__sigsetjmp`).
    Row::new("__sigsetjmp_cancel", NoEffect),
    Row::new("__builtin_expect", ReturnsArg { arg: 0 }),
    // `va_start(ap, last)` names its last parameter only to find the variadic ones; `va_end`
    // ends the list. Neither keeps a pointer (the list itself is followed where it is read:
    // `va_arg`, and the functions handed `ap`).
    Row::new("__builtin_va_start", NoEffect)
        .non_capturing()
        .fills_va_list(),
    Row::new("__builtin_va_end", NoEffect).non_capturing(),
    Row::new("__builtin_va_copy", NoEffect).fills_va_list(),
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
    // <math.h>: functions of their arguments alone (errno, which they may set, is per thread;
    // `lgamma` writes the shared `signgam` and stays unmodelled). The ones that return a
    // second result write it through their pointer argument; `nan` reads its string.
    Row::new("acos", NoEffect),
    Row::new("acosf", NoEffect),
    Row::new("acosl", NoEffect),
    Row::new("asin", NoEffect),
    Row::new("asinf", NoEffect),
    Row::new("asinl", NoEffect),
    Row::new("atan", NoEffect),
    Row::new("atanf", NoEffect),
    Row::new("atanl", NoEffect),
    Row::new("atan2", NoEffect),
    Row::new("atan2f", NoEffect),
    Row::new("atan2l", NoEffect),
    Row::new("cos", NoEffect),
    Row::new("cosf", NoEffect),
    Row::new("cosl", NoEffect),
    Row::new("sin", NoEffect),
    Row::new("sinf", NoEffect),
    Row::new("sinl", NoEffect),
    Row::new("tan", NoEffect),
    Row::new("tanf", NoEffect),
    Row::new("tanl", NoEffect),
    Row::new("acosh", NoEffect),
    Row::new("acoshf", NoEffect),
    Row::new("acoshl", NoEffect),
    Row::new("asinh", NoEffect),
    Row::new("asinhf", NoEffect),
    Row::new("asinhl", NoEffect),
    Row::new("atanh", NoEffect),
    Row::new("atanhf", NoEffect),
    Row::new("atanhl", NoEffect),
    Row::new("cosh", NoEffect),
    Row::new("coshf", NoEffect),
    Row::new("coshl", NoEffect),
    Row::new("sinh", NoEffect),
    Row::new("sinhf", NoEffect),
    Row::new("sinhl", NoEffect),
    Row::new("tanh", NoEffect),
    Row::new("tanhf", NoEffect),
    Row::new("tanhl", NoEffect),
    Row::new("exp", NoEffect),
    Row::new("expf", NoEffect),
    Row::new("expl", NoEffect),
    Row::new("exp2", NoEffect),
    Row::new("exp2f", NoEffect),
    Row::new("exp2l", NoEffect),
    Row::new("expm1", NoEffect),
    Row::new("expm1f", NoEffect),
    Row::new("expm1l", NoEffect),
    Row::new("exp10", NoEffect),
    Row::new("exp10f", NoEffect),
    Row::new("exp10l", NoEffect),
    Row::new("log", NoEffect),
    Row::new("logf", NoEffect),
    Row::new("logl", NoEffect),
    Row::new("log10", NoEffect),
    Row::new("log10f", NoEffect),
    Row::new("log10l", NoEffect),
    Row::new("log1p", NoEffect),
    Row::new("log1pf", NoEffect),
    Row::new("log1pl", NoEffect),
    Row::new("log2", NoEffect),
    Row::new("log2f", NoEffect),
    Row::new("log2l", NoEffect),
    Row::new("logb", NoEffect),
    Row::new("logbf", NoEffect),
    Row::new("logbl", NoEffect),
    Row::new("ilogb", NoEffect),
    Row::new("ilogbf", NoEffect),
    Row::new("ilogbl", NoEffect),
    Row::new("cbrt", NoEffect),
    Row::new("cbrtf", NoEffect),
    Row::new("cbrtl", NoEffect),
    Row::new("fabs", NoEffect),
    Row::new("fabsf", NoEffect),
    Row::new("fabsl", NoEffect),
    Row::new("hypot", NoEffect),
    Row::new("hypotf", NoEffect),
    Row::new("hypotl", NoEffect),
    Row::new("pow", NoEffect),
    Row::new("powf", NoEffect),
    Row::new("powl", NoEffect),
    Row::new("sqrt", NoEffect),
    Row::new("sqrtf", NoEffect),
    Row::new("sqrtl", NoEffect),
    Row::new("erf", NoEffect),
    Row::new("erff", NoEffect),
    Row::new("erfl", NoEffect),
    Row::new("erfc", NoEffect),
    Row::new("erfcf", NoEffect),
    Row::new("erfcl", NoEffect),
    Row::new("tgamma", NoEffect),
    Row::new("tgammaf", NoEffect),
    Row::new("tgammal", NoEffect),
    Row::new("ceil", NoEffect),
    Row::new("ceilf", NoEffect),
    Row::new("ceill", NoEffect),
    Row::new("floor", NoEffect),
    Row::new("floorf", NoEffect),
    Row::new("floorl", NoEffect),
    Row::new("nearbyint", NoEffect),
    Row::new("nearbyintf", NoEffect),
    Row::new("nearbyintl", NoEffect),
    Row::new("rint", NoEffect),
    Row::new("rintf", NoEffect),
    Row::new("rintl", NoEffect),
    Row::new("lrint", NoEffect),
    Row::new("lrintf", NoEffect),
    Row::new("lrintl", NoEffect),
    Row::new("llrint", NoEffect),
    Row::new("llrintf", NoEffect),
    Row::new("llrintl", NoEffect),
    Row::new("round", NoEffect),
    Row::new("roundf", NoEffect),
    Row::new("roundl", NoEffect),
    Row::new("lround", NoEffect),
    Row::new("lroundf", NoEffect),
    Row::new("lroundl", NoEffect),
    Row::new("llround", NoEffect),
    Row::new("llroundf", NoEffect),
    Row::new("llroundl", NoEffect),
    Row::new("trunc", NoEffect),
    Row::new("truncf", NoEffect),
    Row::new("truncl", NoEffect),
    Row::new("roundeven", NoEffect),
    Row::new("roundevenf", NoEffect),
    Row::new("roundevenl", NoEffect),
    Row::new("fmod", NoEffect),
    Row::new("fmodf", NoEffect),
    Row::new("fmodl", NoEffect),
    Row::new("remainder", NoEffect),
    Row::new("remainderf", NoEffect),
    Row::new("remainderl", NoEffect),
    Row::new("drem", NoEffect),
    Row::new("dremf", NoEffect),
    Row::new("dreml", NoEffect),
    Row::new("copysign", NoEffect),
    Row::new("copysignf", NoEffect),
    Row::new("copysignl", NoEffect),
    Row::new("nextafter", NoEffect),
    Row::new("nextafterf", NoEffect),
    Row::new("nextafterl", NoEffect),
    Row::new("nexttoward", NoEffect),
    Row::new("nexttowardf", NoEffect),
    Row::new("nexttowardl", NoEffect),
    Row::new("fdim", NoEffect),
    Row::new("fdimf", NoEffect),
    Row::new("fdiml", NoEffect),
    Row::new("fmax", NoEffect),
    Row::new("fmaxf", NoEffect),
    Row::new("fmaxl", NoEffect),
    Row::new("fmin", NoEffect),
    Row::new("fminf", NoEffect),
    Row::new("fminl", NoEffect),
    Row::new("fma", NoEffect),
    Row::new("fmaf", NoEffect),
    Row::new("fmal", NoEffect),
    Row::new("ldexp", NoEffect),
    Row::new("ldexpf", NoEffect),
    Row::new("ldexpl", NoEffect),
    Row::new("scalbn", NoEffect),
    Row::new("scalbnf", NoEffect),
    Row::new("scalbnl", NoEffect),
    Row::new("scalbln", NoEffect),
    Row::new("scalblnf", NoEffect),
    Row::new("scalblnl", NoEffect),
    Row::new("significand", NoEffect),
    Row::new("significandf", NoEffect),
    Row::new("significandl", NoEffect),
    Row::new("j0", NoEffect),
    Row::new("j0f", NoEffect),
    Row::new("j0l", NoEffect),
    Row::new("j1", NoEffect),
    Row::new("j1f", NoEffect),
    Row::new("j1l", NoEffect),
    Row::new("jn", NoEffect),
    Row::new("jnf", NoEffect),
    Row::new("jnl", NoEffect),
    Row::new("y0", NoEffect),
    Row::new("y0f", NoEffect),
    Row::new("y0l", NoEffect),
    Row::new("y1", NoEffect),
    Row::new("y1f", NoEffect),
    Row::new("y1l", NoEffect),
    Row::new("yn", NoEffect),
    Row::new("ynf", NoEffect),
    Row::new("ynl", NoEffect),
    Row::new("frexp", WritesArg { arg: 1 }),
    Row::new("frexpf", WritesArg { arg: 1 }),
    Row::new("frexpl", WritesArg { arg: 1 }),
    Row::new("modf", WritesArg { arg: 1 }),
    Row::new("modff", WritesArg { arg: 1 }),
    Row::new("modfl", WritesArg { arg: 1 }),
    Row::new("remquo", WritesArg { arg: 2 }),
    Row::new("remquof", WritesArg { arg: 2 }),
    Row::new("remquol", WritesArg { arg: 2 }),
    Row::new("lgamma_r", WritesArg { arg: 1 }),
    Row::new("lgamma_rf", WritesArg { arg: 1 }),
    Row::new("lgamma_rl", WritesArg { arg: 1 }),
    Row::new("nan", READS_FIRST),
    Row::new("nanf", READS_FIRST),
    Row::new("nanl", READS_FIRST),
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

/// The functions that send a signal to the calling process (or one of its threads), and which
/// signal (Linux's numbers): what [`crate::signals`] asks of a handler's signal.
pub(super) const SIGNAL_SENDERS: &[(&str, Sends)] = &[
    ("raise", Sends::Arg(0)),
    ("kill", Sends::Arg(1)),
    ("killpg", Sends::Arg(1)),
    ("pthread_kill", Sends::Arg(1)),
    ("sigqueue", Sends::Arg(1)),
    ("pthread_sigqueue", Sends::Arg(1)),
    ("tgkill", Sends::Arg(2)),
    ("abort", Sends::Signal(6)),
    ("alarm", Sends::Signal(14)),
    ("ualarm", Sends::Signal(14)),
    ("setitimer", Sends::Timer(0)),
    ("timer_create", Sends::Chosen),
];

/// The functions that change the signals a thread blocks, and those that build the signal
/// sets they take: what [`crate::analyses::signal_masks`] follows.
pub(super) const SIGNAL_MASKS: &[(&str, MaskCall)] = &[
    ("sigprocmask", MaskCall::Mask { how: 0, set: 1 }),
    ("pthread_sigmask", MaskCall::Mask { how: 0, set: 1 }),
    ("sigemptyset", MaskCall::Empty { set: 0 }),
    ("sigfillset", MaskCall::Fill { set: 0 }),
    ("sigaddset", MaskCall::Add { set: 0, signal: 1 }),
    ("sigdelset", MaskCall::Del { set: 0, signal: 1 }),
];

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
    ("mtx_t", TypeModel::Lock(LockKind::Mutex)),
    ("cnd_t", TypeModel::Cond),
    ("GMutex", TypeModel::Lock(LockKind::Mutex)),
    ("GRWLock", TypeModel::Lock(LockKind::RwLock)),
    ("GCond", TypeModel::Cond),
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
