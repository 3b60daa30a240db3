/* Rounds of workers: each round creates its workers in a counted loop and
 * joins them in another before the next round starts, both inside the loop
 * over rounds. Each round's threads are joined before the next round's are
 * created, so main's unlocked read of `total` after a round's joins is
 * NORACE needs=joins, and so are the workers' updates, which hold `mu` only
 * among themselves. main's write of `phase` between the creates and the joins
 * races with the round's workers reading it: a RACE. */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 3

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total, phase;

static void *worker(void *arg)
{
    long seen = phase; // RACE
    pthread_mutex_lock(&mu);
    total += (long)arg + seen; // NORACE needs=joins
    pthread_mutex_unlock(&mu);
    return NULL;
}

int main(void)
{
    pthread_t t[WORKERS];
    long sum = 0;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < WORKERS; i++)
            pthread_create(&t[i], NULL, worker, (void *)(long)i);
        phase = round; // RACE
        for (int i = 0; i < WORKERS; i++)
            pthread_join(t[i], NULL);
        sum += total; // NORACE needs=joins
    }
    printf("%ld\n", sum);
    return 0;
}
