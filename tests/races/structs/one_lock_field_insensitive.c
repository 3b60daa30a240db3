// locksmith-args: --field-insensitive
/* The fixture harness accepts every technique's own switch, not only the
 * `--no-…` ones: this file runs with all fields of an object as one location.
 * Both fields of `stats` are written holding `stats_m`, so even as one
 * location they are consistently correlated: NORACE. `hits`, a different
 * object, is incremented by both workers with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

struct stats {
    long served;
    long bytes;
};

pthread_mutex_t stats_m = PTHREAD_MUTEX_INITIALIZER;
struct stats stats;
long hits;

static void *worker(void *arg)
{
    long n = (long)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&stats_m);
        stats.served++; // NORACE: stats_m held
        stats.bytes += n; // NORACE: stats_m held
        pthread_mutex_unlock(&stats_m);
    }
    hits++; // RACE: both workers, no lock
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&stats_m);
    printf("%ld %ld %ld\n", stats.served, stats.bytes, hits);
    pthread_mutex_unlock(&stats_m);
    return 0;
}
