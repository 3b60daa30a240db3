/* Heap arrays handed to threads through a struct argument. main callocs two
 * arrays and fills one argument struct before the first fork; both workers
 * get the same struct. `hist` elements are incremented holding the global
 * `hist_m`: NORACE. `raw` elements are incremented with no lock by both
 * workers: RACE. Reading the argument fields is NORACE (written only before
 * the fork). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 16
#define ITER 3000

struct bufs {
    int *hist;
    int *raw;
};

pthread_mutex_t hist_m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    struct bufs *b = arg;
    int *hist = b->hist; // NORACE: written only before the fork
    int *raw = b->raw; // NORACE: written only before the fork
    for (int i = 0; i < ITER; i++) {
        raw[i % N]++; // RACE: both workers, no lock
        pthread_mutex_lock(&hist_m);
        hist[(i * 5) % N]++; // NORACE: hist_m held
        pthread_mutex_unlock(&hist_m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, c;
    struct bufs b;
    b.hist = calloc(N, sizeof *b.hist);
    b.raw = calloc(N, sizeof *b.raw);
    pthread_create(&a, NULL, worker, &b);
    pthread_create(&c, NULL, worker, &b);
    pthread_join(a, NULL);
    pthread_join(c, NULL);
    pthread_mutex_lock(&hist_m);
    printf("%d\n", b.hist[0]); // NORACE: hist_m held
    pthread_mutex_unlock(&hist_m);
    free(b.hist);
    free(b.raw);
    return 0;
}
