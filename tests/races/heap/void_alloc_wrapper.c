/* An allocation wrapper returning `void *` (the usual `xmalloc` that aborts
 * on failure) hands out the object malloc made in it. The worker and main
 * both write `stats->hits` with no lock: RACE. `stats->bytes` is written by
 * both holding `stats->lock`, the mutex inside the same object: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
    pthread_mutex_t lock;
    long hits;
    long bytes;
};

struct stats *stats;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    return p;
}

static void *worker(void *arg)
{
    (void)arg;
    stats->hits++; // RACE: main writes it too, no lock
    pthread_mutex_lock(&stats->lock);
    stats->bytes += 10; // NORACE: stats->lock held
    pthread_mutex_unlock(&stats->lock);
    return NULL;
}

int main(void)
{
    pthread_t t;
    stats = xmalloc(sizeof *stats);
    pthread_mutex_init(&stats->lock, NULL);
    stats->hits = 0;
    stats->bytes = 0;
    pthread_create(&t, NULL, worker, NULL);
    stats->hits++; // RACE: the worker writes it too
    pthread_mutex_lock(&stats->lock);
    stats->bytes += 20; // NORACE: stats->lock held
    pthread_mutex_unlock(&stats->lock);
    pthread_join(t, NULL);
    printf("%ld %ld\n", stats->hits, stats->bytes);
    free(stats);
    return 0;
}
