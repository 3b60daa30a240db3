/* Threads are started until the first failure (`break`), and exactly the
 * started ones are joined: the join loop's bound is the create loop's own
 * counter. Every thread created has an index below the counter's final value,
 * so after the join loop no worker runs: main's unlocked update of `hits` is
 * NORACE needs=joins. A second group stops early also after a create that
 * succeeded (when `stop_early` is set), so the thread of that iteration is
 * never joined and main's write of `misses` races with it: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 8

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long hits;
long misses;
int stop_early;

static void *counter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    hits++; // NORACE needs=joins: main touches hits only after joining every started thread
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *misser(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    misses++; // RACE: the thread of the iteration that stopped early is never joined
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t *tids = calloc(NT, sizeof *tids);
    pthread_t others[NT];
    int started, n;

    (void)argv;
    stop_early = argc > 2;
    if (tids == NULL)
        return 1;
    for (started = 0; started < NT; started++) {
        int err = pthread_create(&tids[started], NULL, counter, NULL);
        if (err != 0) {
            fprintf(stderr, "cannot start thread %d\n", started);
            break;
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    hits = hits * 2; // NORACE needs=joins: every started thread was joined

    for (n = 0; n < NT; n++) {
        if (pthread_create(&others[n], NULL, misser, NULL) != 0)
            break;
        if (stop_early)
            break;
    }
    for (int i = 0; i < n; i++)
        pthread_join(others[i], NULL);
    misses = 0; // RACE: others[n] may still run when the loop stopped after starting it
    printf("%ld %ld\n", hits, misses);
    free(tids);
    return 0;
}
