/* Fields a callee never names still race in its callers. Each worker hands
 * the stats block down through `serve` to `count_hit`, which counts `hits`
 * and stamps `last` with gettimeofday under `stats_m`: NORACE for `hits`.
 * Neither names `misses`, which the workers bump with no lock after each
 * call: RACE. Nor does `count_hit` name the fields of `last`, which the
 * library writes whole and the workers read with no lock: RACE. locksmith
 * gives a callee's view of a struct only the numbers it or its callees use,
 * except where the memory is read or written whole, as the library does. */
#include <pthread.h>
#include <stdio.h>
#include <sys/time.h>

struct stats {
    long hits;
    long misses;
    struct timeval last;
};

static pthread_mutex_t stats_m = PTHREAD_MUTEX_INITIALIZER;
static struct stats stats;

static void count_hit(struct stats *s)
{
    pthread_mutex_lock(&stats_m);
    s->hits++; // NORACE: stats_m held
    gettimeofday(&s->last, NULL); // RACE: the workers read it with no lock
    pthread_mutex_unlock(&stats_m);
}

static void serve(struct stats *s) { count_hit(s); }

static void *worker(void *arg)
{
    long seen = 0;
    for (int i = 0; i < 1000; i++) {
        serve(&stats);
        stats.misses++; // RACE: both workers, no lock
        seen += stats.last.tv_usec; // RACE: written by the other worker's stamp
    }
    return (void *)(seen + (long)arg);
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("%ld\n", stats.hits); // NORACE: after the joins
    return 0;
}
