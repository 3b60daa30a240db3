/* Threads forked in a loop, each with a private malloc'ed buffer. All
 * instances of worker share one abstract location for the buffer (one
 * allocation site) and the fork sits in a loop, so only Down-Fork (the
 * buffer never escapes worker) or uniqueness (buf is fresh and never
 * published) shows it is not shared: NORACE needs=down-fork+uniqueness. `sum` is added to `total` under `m`: NORACE. `max_seen`
 * is written by every instance without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 4
#define N 256

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
long max_seen;

static void *worker(void *arg)
{
    long id = (long)arg;
    long *buf = malloc(N * sizeof *buf);
    long s = 0;
    for (int i = 0; i < N; i++)
        buf[i] = id * i; // NORACE needs=down-fork+uniqueness: buf never escapes
    for (int i = 0; i < N; i++)
        s += buf[i]; // NORACE needs=down-fork+uniqueness: buf never escapes
    free(buf);
    max_seen = s; // RACE: every instance, no lock
    pthread_mutex_lock(&m);
    total += s; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    for (long i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    for (int i = 0; i < NT; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", total); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
