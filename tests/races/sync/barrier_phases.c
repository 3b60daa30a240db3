/* Barriers: the barrier object is synchronisation, never data. Its count is
 * the number of workers, so worker 0's sum after the wait is ordered with the
 * slots filled before it. Each worker fills its own slot of `partial`,
 * indexed by the value it was started with: NORACE. Only worker 0 writes
 * `total` (`id == 0` is not followed): race-free, and still reported.
 * `collisions` is written by both workers in the same phase: RACE. */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 2
#define ROUNDS 2000

static pthread_barrier_t phase;
static long partial[WORKERS];
static long total;
static long collisions;

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ROUNDS; i++)
        partial[id] += i; // NORACE needs=existentials: each worker's own slot
    for (int i = 0; i < ROUNDS; i++)
        collisions++; // RACE: both workers, same phase, no lock
    pthread_barrier_wait(&phase); // NORACE: a barrier is not data
    if (id == 0)
        total = partial[0] + partial[1]; // FALSE-ALARM: after the barrier
    return NULL;
}

int main(void)
{
    pthread_t t[WORKERS];
    pthread_barrier_init(&phase, NULL, WORKERS); // NORACE
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&phase);
    printf("%ld %ld\n", total, collisions);
    return 0;
}
