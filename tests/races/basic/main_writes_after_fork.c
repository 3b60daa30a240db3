/* Writes in main before vs after pthread_create.
 * `limit` is written by main before the first pthread_create and only read
 * afterwards: not shared (NORACE, proved by the sharing analysis).
 * `mode` is written by main after the thread exists while the thread reads
 * it in a loop: RACE on both lines.
 * `hits` is written by the worker and main, always under `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int limit;
int mode;
int hits;

static void *worker(void *arg)
{
    int seen = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        if (i < limit) // NORACE needs=sharing: only read after the fork
            seen++;
        seen += mode; // RACE: main writes mode concurrently
        pthread_mutex_lock(&m);
        hits++; // NORACE: always under m
        pthread_mutex_unlock(&m);
    }
    return (void *)(long)seen;
}

int main(void)
{
    pthread_t t;
    limit = ITER / 2; // NORACE needs=sharing: before the first fork
    pthread_create(&t, NULL, worker, NULL);
    for (int i = 0; i < ITER; i++) {
        mode = i & 1; // RACE: the worker reads mode
        pthread_mutex_lock(&m);
        hits++; // NORACE: always under m
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, NULL);
    return 0;
}
