/* C11 atomics (<stdatomic.h>): two atomic accesses of one object never race
 * with each other (C11 5.1.2.4p25), whether they are calls of the generic
 * functions, or `++`, `+=` and `=` on an object declared `_Atomic` (directly,
 * through a typedef, as a struct member or as an array element). `requests`
 * is counted atomically by both workers and read atomically by main: NORACE.
 * `last_seen` is written atomically by the workers and plainly by main after
 * starting them: an atomic and a plain access of one location still race. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define ROUNDS 2000

atomic_int requests;
_Atomic long bytes;
typedef _Atomic unsigned counter_t;
counter_t errors;
struct stats {
    _Atomic int served;
    atomic_long slots[4];
} stats;
atomic_int last_seen;

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        atomic_fetch_add(&requests, 1); // NORACE: atomic read-modify-write
        bytes += 512; // NORACE: compound assignment of an _Atomic object
        errors++; // NORACE: an _Atomic typedef
        stats.served++; // NORACE: an _Atomic member
        atomic_fetch_add_explicit(&stats.slots[id & 3], 1, memory_order_relaxed); // NORACE
        atomic_store(&last_seen, (int)id); // RACE: main writes it plainly
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    int seen = atomic_load(&requests); // NORACE: atomic read
    long total = bytes; // NORACE: atomic read of an _Atomic object
    *(int *)&last_seen = 0; // RACE: a plain write of an atomic object
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld %u %d\n", seen, total, errors, stats.served);
    return 0;
}
