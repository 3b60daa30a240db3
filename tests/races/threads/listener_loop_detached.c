/* A listener thread that starts a worker per request, forever, and never
 * joins them (a server's accept loop). The workers run beside `main` for as
 * long as the listener runs: `main` updates `limit` with no lock while the
 * workers read it: RACE on both lines. `stats` is updated by every worker
 * and read by `main` holding `stats_m`: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int limit = 10;
long stats;
pthread_mutex_t stats_m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    int l = limit; // RACE: main may be writing it
    pthread_mutex_lock(&stats_m);
    stats += l; // NORACE: stats_m held
    pthread_mutex_unlock(&stats_m);
    return NULL;
}

static void *listener(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_t t;
        if (pthread_create(&t, NULL, worker, NULL) == 0)
            pthread_detach(t);
        usleep(500);
    }
    return NULL;
}

int main(void)
{
    pthread_t l;
    pthread_create(&l, NULL, listener, NULL);
    for (int i = 0; i < 5; i++) {
        usleep(1000);
        limit = 20 + i; // RACE: workers read it
    }
    pthread_mutex_lock(&stats_m);
    printf("%ld\n", stats); // NORACE: stats_m held
    pthread_mutex_unlock(&stats_m);
    return 0;
}
