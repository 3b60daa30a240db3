/* A heap table built by main before the first fork and published through a
 * global pointer. `tab` (the pointer) and `tab->vals` are written only
 * before the fork and read afterwards: NORACE. `tab->hits` is updated
 * holding `m`: NORACE. `tab->misses` is updated by both workers with no
 * lock: RACE.
 * needs=field: with one location per struct object, the race on `misses`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 32
#define ITER 3000

struct table {
    int vals[N];
    long hits;
    long misses;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct table *tab;

static void *worker(void *arg)
{
    struct table *t = tab; // NORACE: tab written only before the fork
    (void)arg;
    t->misses++; // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        if (t->vals[i % N] % 2) // NORACE needs=field: vals written only before the fork
            continue;
        pthread_mutex_lock(&m);
        t->hits++; // NORACE needs=field: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    tab = calloc(1, sizeof *tab); // NORACE: before the first fork
    for (int i = 0; i < N; i++)
        tab->vals[i] = i * 3; // NORACE: before the first fork
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    free(tab);
    return 0;
}
