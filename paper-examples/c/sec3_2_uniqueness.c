/* LOCKSMITH §3.2, the uniqueness example: each worker allocates a cell, initialises it while only
 * its local pointer refers to it, then publishes it in `shared` holding `l`. Readers take the
 * pointer under `l` and read the cell under `l` too. The initialising write happens before the
 * cell escapes, so it needs no lock. Expected: no warning (exit 0). */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int *shared;

void *worker(void *arg) {
    (void)arg;
    int *x = (int *)malloc(sizeof(int));
    *x = 2;
    pthread_mutex_lock(&l);
    shared = x;
    pthread_mutex_unlock(&l);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    int v = 0;
    pthread_mutex_lock(&l);
    if (shared)
        v = *shared;
    pthread_mutex_unlock(&l);
    return (void *)(long)v;
}

int main(void) {
    pthread_t w1, w2, r;
    pthread_create(&w1, 0, worker, 0);
    pthread_create(&w2, 0, worker, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w1, 0);
    pthread_join(w2, 0);
    pthread_join(r, 0);
    return 0;
}
