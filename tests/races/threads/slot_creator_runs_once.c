/* The workers' create loop is in start_scan, which main calls once, not in
 * main itself: each worker still gets a different value of the counter, so
 * its element recs[id] (and the object it points to) is its own: NORACE.
 * start_batch is called twice, by a loop of main: two of its threads get
 * each value, and write one element at once (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct rec {
    long val;
    int done;
};

static struct rec **recs;
static long totals[N];
static long batch_counts[N];
static pthread_t scan[N], batch[2][N];

static void *scan_worker(void *arg)
{
    long id = (long)arg;
    recs[id]->val = 10 * id; // NORACE needs=existentials: only this worker has this id
    recs[id]->done = 1; // NORACE needs=existentials: only this worker has this id
    totals[id] += id; // NORACE needs=existentials: only this worker has this id
    return NULL;
}

static void *batch_worker(void *arg)
{
    long id = (long)arg;
    batch_counts[id]++; // RACE: a worker of each batch has this id
    return NULL;
}

static void start_scan(void)
{
    recs = calloc(N, sizeof *recs);
    if (!recs)
        exit(1);
    for (int i = 0; i < N; i++) {
        recs[i] = calloc(1, sizeof **recs);
        if (!recs[i])
            exit(1);
    }
    for (long i = 0; i < N; i++)
        pthread_create(&scan[i], NULL, scan_worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(scan[i], NULL);
}

static void start_batch(int round)
{
    for (long i = 0; i < N; i++)
        pthread_create(&batch[round][i], NULL, batch_worker, (void *)i);
}

int main(void)
{
    start_scan();
    for (int round = 0; round < 2; round++)
        start_batch(round);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            pthread_join(batch[round][i], NULL);
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += recs[i]->val + recs[i]->done + totals[i] + batch_counts[i];
    printf("%ld\n", sum);
    return 0;
}
