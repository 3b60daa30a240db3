/* Elements of an allocated block handed to the threads of a counted loop.
 * main allocates `jobs` itself and hands `&jobs[i]` to worker i after
 * filling it in: each element is its worker's own, NORACE. launch() hands
 * out the elements of the block its caller gives it, and main calls it twice
 * with the same block, so each element of `shared` reaches two racers: RACE.
 * A peeker also reads the next element (`j[1]`), which main is still filling
 * in: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct job {
    int id;
    long sum;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    for (int k = 0; k < 1000; k++)
        j->sum += k * j->id; // NORACE needs=existentials: only this worker's element
    return NULL;
}

static void *racer(void *arg)
{
    struct job *j = arg;
    j->sum += 1; // RACE: the other launch's racer of this element bumps it too
    return NULL;
}

static void *peeker(void *arg)
{
    struct job *j = arg;
    return (void *)(long)j[1].id; // RACE: main fills in the next element
}

static void launch(struct job *pool, pthread_t *t)
{
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, racer, &pool[i]);
}

int main(void)
{
    pthread_t t[N], u[2][N], v[N];
    struct job *jobs = malloc(N * sizeof *jobs);
    struct job *shared = calloc(N, sizeof *shared);
    struct job *more = calloc(N + 1, sizeof *more);
    long total = 0;
    for (int i = 0; i < N; i++) {
        jobs[i].id = i; // NORACE needs=existentials: before this worker starts
        jobs[i].sum = 0; // NORACE needs=existentials: before this worker starts
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    }
    launch(shared, u[0]);
    launch(shared, u[1]);
    for (int i = 0; i < N; i++) {
        more[i].id = i; // RACE: the previous peeker reads it
        pthread_create(&v[i], NULL, peeker, &more[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < N; i++)
            pthread_join(u[r][i], NULL);
    for (int i = 0; i < N; i++)
        pthread_join(v[i], NULL);
    for (int i = 0; i < N; i++)
        total += jobs[i].sum; // NORACE: every worker has been joined
    printf("%ld\n", total);
    free(jobs);
    free(shared);
    free(more);
    return 0;
}
