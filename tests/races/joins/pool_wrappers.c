/* A thread pool in an object: `pool_create(n)` allocates the pool (cleared by `memset` before
 * anything is stored in it), keeps `n` in `size`, allocates the block of thread ids and starts
 * `n` workers into it by a create loop, and returns the pool; `pool_destroy(q)` joins
 * `q->threads[0 .. q->size)`. Only the create writes the ids and only `pool_create` writes
 * `size`, so the destroy joins every worker: main's reads and reset of the pool's counter after
 * it are ordered (NORACE; reported before). The crew has the same shape, but `crew_shrink`
 * lowers its `size` after the workers started: its destroy leaves the last worker running, and
 * `crew_total` races (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pool {
    pthread_mutex_t lock;
    pthread_t *threads;
    int size;
    long done;
};

struct crew {
    pthread_t *threads;
    int size;
};

static long crew_total;
static pthread_mutex_t crew_lock = PTHREAD_MUTEX_INITIALIZER;

static void *work(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    p->done++; // NORACE needs=joins: under the pool's lock, and main's reset is after the joins
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static struct pool *pool_create(int n)
{
    struct pool *p = malloc(sizeof *p);
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->size = n;
    p->threads = malloc(n * sizeof(pthread_t));
    for (int i = 0; i < n; i++)
        pthread_create(&p->threads[i], NULL, work, p);
    return p;
}

static void pool_destroy(struct pool *q)
{
    for (int j = 0; j < q->size; j++)
        pthread_join(q->threads[j], NULL);
    free(q->threads);
}

static void *crew_work(void *arg)
{
    pthread_mutex_lock(&crew_lock);
    crew_total++; // RACE: the last worker is never joined
    pthread_mutex_unlock(&crew_lock);
    return arg;
}

static struct crew *crew_create(int n)
{
    struct crew *c = malloc(sizeof *c);
    c->size = n;
    c->threads = malloc(n * sizeof(pthread_t));
    for (int i = 0; i < c->size; i++)
        pthread_create(&c->threads[i], NULL, crew_work, NULL);
    return c;
}

static void crew_shrink(struct crew *c) { c->size--; }

static void crew_destroy(struct crew *c)
{
    for (int j = 0; j < c->size; j++)
        pthread_join(c->threads[j], NULL);
}

int main(void)
{
    struct pool *p = pool_create(3);
    pool_destroy(p);
    printf("%ld\n", p->done); // NORACE needs=joins: every worker was joined
    p->done = 0; // NORACE needs=joins: every worker was joined
    free(p);
    struct crew *c = crew_create(3);
    crew_shrink(c);
    crew_destroy(c);
    crew_total = 0; // RACE: the last worker may still run
    pthread_join(c->threads[2], NULL);
    return 0;
}
