/* A mutex inside a struct allocated once in main and passed to all threads.
 * main mallocs the object, initialises its mutex and fields before the first
 * fork, and passes the same pointer to both workers. `count` and `sum` are
 * always accessed holding s->lock, the mutex of that single object: NORACE.
 * `dirty` is written by both workers without the lock: RACE.
 * needs=field: with one location per struct object, the race on `dirty`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 3000

struct shared {
    pthread_mutex_t lock;
    long count;
    long sum;
    int dirty;
};

static void *worker(void *arg)
{
    struct shared *s = arg;
    s->dirty = 1; // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&s->lock);
        s->count++; // NORACE needs=field: s->lock held
        s->sum += i; // NORACE needs=field: s->lock held
        pthread_mutex_unlock(&s->lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    struct shared *s = malloc(sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    s->count = 0; // NORACE: before the first fork
    s->sum = 0; // NORACE: before the first fork
    s->dirty = 0;
    pthread_create(&a, NULL, worker, s);
    pthread_create(&b, NULL, worker, s);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&s->lock);
    printf("%ld %ld\n", s->count, s->sum); // NORACE: s->lock held
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return 0;
}
