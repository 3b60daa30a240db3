/* The bound of a join loop changed between the create and join loops, by a
 * function writing it through a pointer. Four workers are started for
 * cfg.nworkers == 4, then drain(&cfg) lowers cfg.nworkers to 1, so the join
 * loop joins only the first worker: the others may still be adding to
 * `total` when main overwrites it without a lock: RACE. The workers' own
 * accesses hold `m` but conflict with main's: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_WORKERS 8

struct config {
    int nworkers;
};

struct config cfg = { 4 };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;

static void drain(struct config *c)
{
    c->nworkers = 1;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    if (id > 0)
        usleep(50000);
    pthread_mutex_lock(&m);
    total += id; // RACE: m held, but main writes without it while this worker runs
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t th[MAX_WORKERS];
    int i;
    for (i = 0; i < cfg.nworkers; i++)
        pthread_create(&th[i], NULL, worker, (void *)(long)i);
    drain(&cfg);
    for (i = 0; i < cfg.nworkers; i++)
        pthread_join(th[i], NULL);
    total = -1; // RACE: workers 1-3 are not joined
    printf("%ld\n", total);
    for (i = 1; i < 4; i++) /* the workers the join loop missed */
        pthread_join(th[i], NULL);
    return 0;
}
