/* Barrier phases with `main` taking part: WORKERS threads started in a
 * counted loop and `main` wait on a barrier of count WORKERS + 1, so every
 * trip needs all of them. `main` rewrites `table` between the workers' first
 * and second waits, where no worker touches it, and the workers wait through
 * a helper. In the middle phase the workers all bump `hits`: RACE. */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 3

static pthread_barrier_t step;
static int table[16];
static long hits;

static void sync_all(void)
{
    pthread_barrier_wait(&step);
}

static void *worker(void *arg)
{
    long sum = (long)arg;
    for (int i = 0; i < 16; i++)
        sum += table[i]; // NORACE: phase 0, main writes in phase 1
    sync_all();
    hits++; // RACE: every worker, phase 1
    sync_all();
    for (int i = 0; i < 16; i++)
        sum += table[i]; // NORACE: phase 2
    return (void *)sum;
}

int main(void)
{
    pthread_t t[WORKERS];
    for (int i = 0; i < 16; i++)
        table[i] = i; // NORACE: before the threads start
    pthread_barrier_init(&step, NULL, WORKERS + 1);
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    sync_all();
    for (int i = 0; i < 16; i++)
        table[i] = 2 * i; // NORACE: phase 1 of main, the workers read in 0 and 2
    sync_all();
    long total = 0;
    for (int i = 0; i < WORKERS; i++) {
        void *sum;
        pthread_join(t[i], &sum);
        total += (long)sum;
    }
    pthread_barrier_destroy(&step);
    printf("%ld %ld\n", hits, total);
    return 0;
}
