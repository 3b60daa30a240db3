/* Unlocking through a pointer whose target the analysis does not know (here
 * one rebuilt from an integer) may release any lock. The worker releases
 * `m` that way and then bumps `count`, which main bumps holding `m`: RACE on
 * both. `total` is bumped by both only while `m` is certainly held: NORACE. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
uintptr_t handle;
long count;
long total;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100000; i++) {
        pthread_mutex_lock(&m);
        total++; // NORACE: m held
        pthread_mutex_unlock((pthread_mutex_t *)handle);
        count++; // RACE: m was released through the unknown pointer
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    handle = (uintptr_t)&m;
    pthread_create(&t, NULL, worker, NULL);
    for (int i = 0; i < 100000; i++) {
        pthread_mutex_lock(&m);
        count++; // RACE: the worker bumps it after releasing m
        total++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, NULL);
    printf("%ld %ld\n", count, total);
    return 0;
}
