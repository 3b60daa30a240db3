/* A warning lists only the accesses that race. `total` is set by main before
 * the workers exist and read by main after joining them: those accesses are
 * ordered with every other one (NORACE, they are the warning's context). The
 * workers add to it without a lock: RACE. `peak` is written by the workers
 * under `m` and once by the watcher without it: the watcher's write races
 * with each locked one, so all of them are listed. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
long peak;

static void *worker(void *arg)
{
    for (int i = 0; i < ROUNDS; i++) {
        total += i; // RACE: both workers, no lock
        pthread_mutex_lock(&m);
        if (i > peak)
            peak = i; // RACE: the watcher writes it without m
        pthread_mutex_unlock(&m);
    }
    return arg;
}

static void *watcher(void *arg)
{
    for (int i = 0; i < ROUNDS; i++)
        peak = 0; // RACE: no lock
    return arg;
}

int main(void)
{
    pthread_t a, b, w;
    total = 0; // NORACE: before any thread starts
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_create(&w, NULL, watcher, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(w, NULL);
    printf("%ld %ld\n", total, peak); // NORACE: after every thread is joined
    return 0;
}
