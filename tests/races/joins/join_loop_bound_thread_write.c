/* The bound of a join loop written by another thread while the workers run.
 * A resizer thread sets cfg.nworkers to 1 (holding `m`) after the four
 * workers are started, so main's join loop may join only the first one and
 * main's unlocked write of `total` may meet the others': RACE. Main reads
 * cfg.nworkers without `m` in its loop conditions, against the resizer's
 * write: RACE (annotated on the create loop, the access ThreadSanitizer
 * reports; the join loop's read is the same race). */
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

static void *resizer(void *arg)
{
    (void)arg;
    usleep(20000);
    pthread_mutex_lock(&m);
    cfg.nworkers = 1; // RACE: main reads it in its loops without m
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    if (id > 0)
        usleep(200000);
    pthread_mutex_lock(&m);
    total += id; // RACE: m held, but main writes without it while this worker runs
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t th[MAX_WORKERS], r;
    int i;
    pthread_create(&r, NULL, resizer, NULL);
    for (i = 0; i < cfg.nworkers; i++) // RACE: the resizer writes cfg.nworkers
        pthread_create(&th[i], NULL, worker, (void *)(long)i);
    usleep(80000);
    for (i = 0; i < cfg.nworkers; i++)
        pthread_join(th[i], NULL);
    total = -1; // RACE: workers 1-3 are not joined
    printf("%ld\n", total);
    pthread_join(r, NULL);
    for (i = 1; i < 4; i++) /* the workers the join loop missed */
        pthread_join(th[i], NULL);
    return 0;
}
