/* Code locksmith cannot see (the part between #ifndef __LOCKSMITH__ and
 * #endif: locksmith preprocesses with __LOCKSMITH__ defined) returns the
 * same object to every caller: a pointer from unknown code points into
 * external memory, shared by all threads. Both threads bump `hits` of the
 * object `lib_stats` returns with no lock: RACE. `local_hits`, a variable of
 * this file the library never sees, is bumped under `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>

struct stats {
    unsigned hits;
};

struct stats *lib_stats(void);

#ifndef __LOCKSMITH__
static struct stats lib_own;
struct stats *lib_stats(void)
{
    return &lib_own;
}
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned local_hits;

static void *worker(void *arg)
{
    lib_stats()->hits++; // RACE: the library hands out one object to all threads
    pthread_mutex_lock(&m);
    local_hits++; // NORACE: m held
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    lib_stats()->hits++; // RACE: the worker bumps it too
    pthread_mutex_lock(&m);
    local_hits++; // NORACE: m held
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    printf("%u\n", lib_stats()->hits);
    return 0;
}
