/* A program whose locks come from a library locksmith is not given (include/spin.h).
 * ../locksmith.toml says what spin_acquire, spin_release and spin_try do, and gives the
 * include directory and WORKERS. With it, `requests` and `failures` are protected by
 * stats_lock and only `last_seen` races; without it, all three are reported. */
#include <pthread.h>
#include <stdio.h>

#include "spin.h"

#ifndef WORKERS
#error "WORKERS comes from locksmith.toml (or -D)"
#endif

static struct spin stats_lock;
static long requests;
static long failures;
static long last_seen;

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < 1000; i++) {
        spin_acquire(&stats_lock);
        requests++; // NORACE: stats_lock held
        spin_release(&stats_lock);
        if (spin_try(&stats_lock)) {
            failures++; // NORACE: spin_try returned nonzero, so stats_lock is held
            spin_release(&stats_lock);
        }
        last_seen = id; // RACE: written by every worker without a lock
    }
    return NULL;
}

int main(void)
{
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %ld\n", requests, failures, last_seen);
    return 0;
}
