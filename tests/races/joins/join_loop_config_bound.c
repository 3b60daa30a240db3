/* Create and join loops bounded by a member of a global configuration whose
 * address is handed to a parser before the threads start. read_config(&cfg)
 * sets cfg.nworkers through a pointer, before the create loop; nothing
 * writes it while the workers run (the reporter thread writes another member,
 * cfg.verbose, under `m`), so the join loop joins every worker and main's
 * unlocked write of `total` after it is NORACE needs=joins (on all accesses).
 * `misses` is bumped by every worker with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define MAX_WORKERS 8

struct config {
    int nworkers;
    int verbose;
};

struct config cfg;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
long misses;

static void read_config(struct config *c)
{
    c->nworkers = 4;
    c->verbose = 0;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    misses++; // RACE: every worker, no lock
    pthread_mutex_lock(&m);
    total += id; // NORACE needs=joins: m held; main writes only after joining all
    cfg.verbose = 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t th[MAX_WORKERS];
    int i;
    read_config(&cfg);
    for (i = 0; i < cfg.nworkers; i++)
        pthread_create(&th[i], NULL, worker, (void *)(long)i);
    for (i = 0; i < cfg.nworkers; i++)
        pthread_join(th[i], NULL);
    total = total * 2; // NORACE needs=joins: every worker joined
    printf("%ld\n", total); // NORACE needs=joins: every worker joined
    return 0;
}
