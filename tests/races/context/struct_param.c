/* A helper taking a pointer to a struct that holds a mutex beside its data.
 * update(g, v) locks g->lock and updates g->val and g->ops. It is called for
 * the two global instances g1 and g2 from both threads: at each call site
 * the lock and the fields belong to the same instance, so every access is
 * NORACE. `rounds` is written by both threads without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct guarded {
    pthread_mutex_t lock;
    long val;
    long ops;
};

struct guarded g1 = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
struct guarded g2 = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
long rounds;

static void update(struct guarded *g, long v)
{
    pthread_mutex_lock(&g->lock);
    g->val += v; // NORACE: g1.val under g1.lock, g2.val under g2.lock
    g->ops++; // NORACE: g1.ops under g1.lock, g2.ops under g2.lock
    pthread_mutex_unlock(&g->lock);
}

static void *worker(void *arg)
{
    (void)arg;
    rounds++; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        update(&g1, 1);
        update(&g2, 2);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&g2.lock);
    printf("%ld\n", g2.val); // NORACE: g2.lock held
    pthread_mutex_unlock(&g2.lock);
    return 0;
}
