/* A void* context that always carries the same struct type. main allocates
 * one `struct ctx` (with its mutex inside) before the first fork and passes
 * it as void* to both threads; each thread passes it on as void* to a
 * callback through each(). `hits` and `odd` are updated holding c->lock, the
 * mutex of the single object: NORACE. `starts` is bumped by both threads
 * through the context without the lock: RACE.
 * needs=field: with one location per struct object, the race on `starts`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 3000

struct ctx {
    pthread_mutex_t lock;
    long hits;
    long odd;
    long starts;
};

static void on_item(void *p, int v)
{
    struct ctx *c = p;
    pthread_mutex_lock(&c->lock);
    c->hits++; // NORACE needs=field: c->lock held, one ctx object
    if (v & 1)
        c->odd++; // NORACE needs=field: c->lock held, one ctx object
    pthread_mutex_unlock(&c->lock);
}

static void each(int n, void (*cb)(void *, int), void *env)
{
    for (int i = 0; i < n; i++)
        cb(env, i);
}

static void *worker(void *arg)
{
    struct ctx *c = arg;
    c->starts++; // RACE: both threads, no lock
    each(ITER, on_item, arg);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    struct ctx *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    pthread_create(&a, NULL, worker, c);
    pthread_create(&b, NULL, worker, c);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&c->lock);
    printf("%ld %ld\n", c->hits, c->odd); // NORACE: c->lock held
    pthread_mutex_unlock(&c->lock);
    return 0;
}
