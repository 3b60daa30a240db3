/* Chunks of elements claimed at once: a worker takes `start = next; next += CHUNK;` under `m`
 * and walks `[start, end)`, where `end` is `start + CHUNK` cut down to `N` (by a test, or by a
 * conditional expression), or tests `j < start + CHUNK` itself. No other claim returns a value
 * in `[start, start + CHUNK)`, so each element of `squares`, `cubes` and `halves` is written
 * by one worker, and main reads them after the joins: NORACE. Main writes `marks[0]` while
 * the workers run, and some worker's chunk holds element 0: both writes race. Before, every
 * element write was reported as made by two workers. */
#include <pthread.h>
#include <stdio.h>

#define N 100
#define CHUNK 8
static long squares[N], cubes[N], halves[N], marks[N];
static int next;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        int start, end, j;
        pthread_mutex_lock(&m);
        start = next;
        next += CHUNK;
        pthread_mutex_unlock(&m);
        if (start >= N)
            return NULL;
        end = start + CHUNK;
        if (end > N)
            end = N;
        for (j = start; j < end; j++) {
            squares[j] = (long)j * j; // NORACE needs=existentials
            marks[j] = 1; // RACE
        }
        for (j = start; j < start + CHUNK && j < N; j++)
            cubes[j] = (long)j * j * j; // NORACE needs=existentials
        end = start + CHUNK < N ? start + CHUNK : N;
        for (j = start; j < end; j++)
            halves[j] = j / 2; // NORACE needs=existentials
    }
}

int main(void)
{
    pthread_t t[2];
    long sum = 0;
    int k;
    for (k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, worker, NULL);
    marks[0] = 2; // RACE
    for (k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    for (k = 0; k < N; k++)
        sum += squares[k] + cubes[k] + halves[k] + marks[k]; // NORACE
    printf("%ld\n", sum);
    return 0;
}
