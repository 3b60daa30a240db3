/* Each worker, started with the create loop's counter `id`, walks its own
 * rows [id * chunk, (id + 1) * chunk) of a matrix and its own stretch of a
 * block kept in a global pointer, with `chunk` computed alike by every
 * worker from globals main set before starting them: no two ranges meet,
 * NORACE. A loop that runs to `(id + 1) * chunk` inclusive writes the next
 * worker's first element (RACE); a width that depends on `id` makes ranges
 * overlap (RACE); so does a span main changes between creates (RACE, and
 * on `span` itself). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 16
#define T 4

static int rows, workers, span = 4;
static double m[N][N];
static double *v;
static int edge[N + 1], wide[4 * N], spans[N];

static void *worker(void *arg)
{
    long id = (long)arg;
    int chunk = rows / workers;
    for (int i = id * chunk; i < (id + 1) * chunk; i++)
        for (int j = 0; j < N; j++)
            m[i][j] = i + j; // NORACE needs=existentials: only this worker's rows
    int lo = id * chunk, hi = lo + chunk;
    for (int i = lo; i < hi; i++)
        v[i] = 2 * i; // NORACE needs=existentials: only this worker's stretch
    for (int i = id * chunk; i <= (id + 1) * chunk; i++)
        edge[i]++; // RACE: the last element is the next worker's first
    int width = 2 * (T - id);
    for (int i = id * width; i < (id + 1) * width; i++)
        wide[i]++; // RACE: worker 0 walks [0, 8), worker 1 [6, 12)
    int s = span; // RACE: main changes span between creates
    for (int i = id * s; i < (id + 1) * s; i++)
        spans[i]++; // RACE: worker 0 walks [0, 4), worker 1 [3, 6)
    return NULL;
}

int main(void)
{
    pthread_t t[T];
    rows = N;
    workers = T;
    v = calloc(N, sizeof *v);
    if (!v)
        return 1;
    for (long i = 0; i < T; i++) {
        span = 4 - (int)i; // RACE: the workers started before read it
        pthread_create(&t[i], NULL, worker, (void *)i);
        usleep(10000);
    }
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
    printf("%f %f %d %d %d\n", m[1][1], v[1], edge[4], wide[6], spans[3]);
    free(v);
    return 0;
}
