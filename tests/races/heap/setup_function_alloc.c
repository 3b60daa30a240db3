/* An object with its own mutex, created by a setup function called once.
 * pool_new() (called once, from main, not in a loop) callocs the pool and
 * initialises its mutex. pool_get/pool_put change `free_slots` and `grants`
 * holding p->lock: NORACE. Workers bump `peeks` without the lock: RACE.
 * needs=field: with one location per struct object, the race on `peeks`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 3000

struct pool {
    pthread_mutex_t lock;
    int free_slots;
    long grants;
    long peeks;
};

static struct pool *pool_new(int n)
{
    struct pool *p = calloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->free_slots = n;
    return p;
}

static int pool_get(struct pool *p)
{
    int ok = 0;
    pthread_mutex_lock(&p->lock);
    if (p->free_slots > 0) { // NORACE needs=field: p->lock held
        p->free_slots--; // NORACE needs=field: p->lock held
        p->grants++; // NORACE needs=field: p->lock held
        ok = 1;
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

static void pool_put(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->free_slots++; // NORACE needs=field: p->lock held
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    p->peeks++; // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++)
        if (pool_get(p))
            pool_put(p);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    struct pool *p = pool_new(1);
    pthread_create(&a, NULL, worker, p);
    pthread_create(&b, NULL, worker, p);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&p->lock);
    printf("%ld\n", p->grants); // NORACE: p->lock held
    pthread_mutex_unlock(&p->lock);
    return 0;
}
