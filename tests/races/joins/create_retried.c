/* A create retried until it succeeds (`while (pthread_create(…) != 0)`)
 * starts one thread per run of the loop's body: a create that fails starts
 * none. So the join loop still joins every worker (main's reads after it:
 * NORACE), and each worker still owns the element of the value it was
 * handed (NORACE). A create retried whether or not it failed starts a
 * second worker with the same value: `extra` and its `shares` element race
 * (RACE). All workers also count into `total` without a lock (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 4

static long results[N];
static long shares[N];
static long total;

static void *worker(void *arg)
{
    long id = (long)arg;
    results[id] = id * 2; // NORACE needs=existentials: only this worker was handed id
    total += id; // RACE: every worker adds without a lock
    return NULL;
}

static void *extra(void *arg)
{
    long id = (long)arg;
    shares[id] += 1; // RACE: two threads are started with each id
    return NULL;
}

int main(void)
{
    pthread_t t[N], u[2 * N];
    long i;
    for (i = 0; i < N; i++) {
        while (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
            usleep(1000);
    }
    for (i = 0; i < N; i++) {
        int tries = 0;
        while (tries < 2) {
            pthread_create(&u[2 * i + tries], NULL, extra, (void *)i);
            tries++;
        }
    }
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < 2 * N; i++)
        pthread_join(u[i], NULL);
    for (i = 0; i < N; i++)
        printf("%ld\n", results[i]); // NORACE: after the join loop
    return 0;
}
