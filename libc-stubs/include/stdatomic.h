/* stdatomic.h — locksmith's replacement for C11 <stdatomic.h>.
 *
 * gcc's own header expands atomic_load and friends into statement expressions declaring
 * `__auto_type` variables, which the C parser used by locksmith rejects. This shim keeps the same
 * names but maps them onto gcc's `__atomic_*` builtins directly, so a program using <stdatomic.h>
 * still preprocesses to C that both gcc and locksmith accept. The atomic types are `_Atomic`
 * typedefs, so that `++`, `+=` and `=` on an atomic_* object are atomic accesses, as in C11.
 *
 * Differences from C11 that do not matter for analysis: `atomic_fetch_add` on a pointer type adds
 * bytes (as gcc's builtin does), and `atomic_init` is an atomic store (C11 makes it a plain one,
 * which could race with an atomic access made at the same time). */
#ifndef LOCKSMITH_STDATOMIC_H
#define LOCKSMITH_STDATOMIC_H

#include <stddef.h>
#include <stdint.h>

typedef enum memory_order {
    memory_order_relaxed = __ATOMIC_RELAXED,
    memory_order_consume = __ATOMIC_CONSUME,
    memory_order_acquire = __ATOMIC_ACQUIRE,
    memory_order_release = __ATOMIC_RELEASE,
    memory_order_acq_rel = __ATOMIC_ACQ_REL,
    memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;

typedef _Atomic _Bool atomic_bool;
typedef _Atomic char atomic_char;
typedef _Atomic signed char atomic_schar;
typedef _Atomic unsigned char atomic_uchar;
typedef _Atomic short atomic_short;
typedef _Atomic unsigned short atomic_ushort;
typedef _Atomic int atomic_int;
typedef _Atomic unsigned int atomic_uint;
typedef _Atomic long atomic_long;
typedef _Atomic unsigned long atomic_ulong;
typedef _Atomic long long atomic_llong;
typedef _Atomic unsigned long long atomic_ullong;
typedef _Atomic __CHAR16_TYPE__ atomic_char16_t;
typedef _Atomic __CHAR32_TYPE__ atomic_char32_t;
typedef _Atomic __WCHAR_TYPE__ atomic_wchar_t;
typedef _Atomic int_least8_t atomic_int_least8_t;
typedef _Atomic uint_least8_t atomic_uint_least8_t;
typedef _Atomic int_least16_t atomic_int_least16_t;
typedef _Atomic uint_least16_t atomic_uint_least16_t;
typedef _Atomic int_least32_t atomic_int_least32_t;
typedef _Atomic uint_least32_t atomic_uint_least32_t;
typedef _Atomic int_least64_t atomic_int_least64_t;
typedef _Atomic uint_least64_t atomic_uint_least64_t;
typedef _Atomic int_fast8_t atomic_int_fast8_t;
typedef _Atomic uint_fast8_t atomic_uint_fast8_t;
typedef _Atomic int_fast16_t atomic_int_fast16_t;
typedef _Atomic uint_fast16_t atomic_uint_fast16_t;
typedef _Atomic int_fast32_t atomic_int_fast32_t;
typedef _Atomic uint_fast32_t atomic_uint_fast32_t;
typedef _Atomic int_fast64_t atomic_int_fast64_t;
typedef _Atomic uint_fast64_t atomic_uint_fast64_t;
typedef _Atomic intptr_t atomic_intptr_t;
typedef _Atomic uintptr_t atomic_uintptr_t;
typedef _Atomic size_t atomic_size_t;
typedef _Atomic ptrdiff_t atomic_ptrdiff_t;
typedef _Atomic intmax_t atomic_intmax_t;
typedef _Atomic uintmax_t atomic_uintmax_t;

/* A flag is a struct so that it cannot be used as a plain integer by mistake, as in C11. */
typedef struct atomic_flag {
    _Atomic unsigned char __locksmith_flag;
} atomic_flag;

#define ATOMIC_BOOL_LOCK_FREE 2
#define ATOMIC_CHAR_LOCK_FREE 2
#define ATOMIC_CHAR16_T_LOCK_FREE 2
#define ATOMIC_CHAR32_T_LOCK_FREE 2
#define ATOMIC_WCHAR_T_LOCK_FREE 2
#define ATOMIC_SHORT_LOCK_FREE 2
#define ATOMIC_INT_LOCK_FREE 2
#define ATOMIC_LONG_LOCK_FREE 2
#define ATOMIC_LLONG_LOCK_FREE 2
#define ATOMIC_POINTER_LOCK_FREE 2

#define ATOMIC_VAR_INIT(value) (value)
#define ATOMIC_FLAG_INIT { 0 }

#define kill_dependency(y) (y)
#define atomic_init(obj, value) ((void)(*(obj) = (value)))
#define atomic_thread_fence(order) __atomic_thread_fence(order)
#define atomic_signal_fence(order) __atomic_signal_fence(order)
#define atomic_is_lock_free(obj) __atomic_is_lock_free(sizeof(*(obj)), (obj))

#define atomic_load_explicit(obj, order) __atomic_load_n((obj), (order))
#define atomic_load(obj) __atomic_load_n((obj), __ATOMIC_SEQ_CST)
#define atomic_store_explicit(obj, value, order) __atomic_store_n((obj), (value), (order))
#define atomic_store(obj, value) __atomic_store_n((obj), (value), __ATOMIC_SEQ_CST)
#define atomic_exchange_explicit(obj, value, order) __atomic_exchange_n((obj), (value), (order))
#define atomic_exchange(obj, value) __atomic_exchange_n((obj), (value), __ATOMIC_SEQ_CST)

#define atomic_compare_exchange_strong_explicit(obj, expected, desired, success, failure) \
    __atomic_compare_exchange_n((obj), (expected), (desired), 0, (success), (failure))
#define atomic_compare_exchange_strong(obj, expected, desired) \
    __atomic_compare_exchange_n((obj), (expected), (desired), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_weak_explicit(obj, expected, desired, success, failure) \
    __atomic_compare_exchange_n((obj), (expected), (desired), 1, (success), (failure))
#define atomic_compare_exchange_weak(obj, expected, desired) \
    __atomic_compare_exchange_n((obj), (expected), (desired), 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#define atomic_fetch_add_explicit(obj, value, order) __atomic_fetch_add((obj), (value), (order))
#define atomic_fetch_add(obj, value) __atomic_fetch_add((obj), (value), __ATOMIC_SEQ_CST)
#define atomic_fetch_sub_explicit(obj, value, order) __atomic_fetch_sub((obj), (value), (order))
#define atomic_fetch_sub(obj, value) __atomic_fetch_sub((obj), (value), __ATOMIC_SEQ_CST)
#define atomic_fetch_or_explicit(obj, value, order) __atomic_fetch_or((obj), (value), (order))
#define atomic_fetch_or(obj, value) __atomic_fetch_or((obj), (value), __ATOMIC_SEQ_CST)
#define atomic_fetch_xor_explicit(obj, value, order) __atomic_fetch_xor((obj), (value), (order))
#define atomic_fetch_xor(obj, value) __atomic_fetch_xor((obj), (value), __ATOMIC_SEQ_CST)
#define atomic_fetch_and_explicit(obj, value, order) __atomic_fetch_and((obj), (value), (order))
#define atomic_fetch_and(obj, value) __atomic_fetch_and((obj), (value), __ATOMIC_SEQ_CST)

#define atomic_flag_test_and_set_explicit(flag, order) \
    __atomic_test_and_set(&(flag)->__locksmith_flag, (order))
#define atomic_flag_test_and_set(flag) \
    __atomic_test_and_set(&(flag)->__locksmith_flag, __ATOMIC_SEQ_CST)
#define atomic_flag_clear_explicit(flag, order) __atomic_clear(&(flag)->__locksmith_flag, (order))
#define atomic_flag_clear(flag) __atomic_clear(&(flag)->__locksmith_flag, __ATOMIC_SEQ_CST)

#endif
