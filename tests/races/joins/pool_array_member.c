/* A thread pool in an object whose thread ids are an array member (`pthread_t ids[8]`):
 * `pool_open(n)` allocates the pool (returning `NULL` when it cannot), keeps `n` in `size` and
 * starts `size` workers into `ids[0 .. size)`; `pool_close(q)` joins `q->ids[j]` below
 * `q->size`. Nothing but the create writes or takes the address of an element, and only
 * `pool_open` writes `size`, so main's use of the pool's counter after `pool_close` is ordered
 * (NORACE; reported before). The team has the same shape, but `team_shrink` lowers its `size`
 * after the workers started: its close leaves the last worker running, and `team_total` races
 * (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct pool {
    pthread_mutex_t lock;
    pthread_t ids[8];
    int size;
    long done;
};

struct team {
    pthread_t ids[8];
    int size;
};

static long team_total;
static pthread_mutex_t team_lock = PTHREAD_MUTEX_INITIALIZER;

static void *work(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    p->done++; // NORACE needs=joins: under the pool's lock, and main's reset is after the joins
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static struct pool *pool_open(int n)
{
    struct pool *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    p->done = 0;
    p->size = n;
    for (int i = 0; i < p->size; i++)
        pthread_create(&p->ids[i], NULL, work, p);
    return p;
}

static void pool_close(struct pool *q)
{
    for (int j = 0; j < q->size; j++)
        pthread_join(q->ids[j], NULL);
}

static void *team_work(void *arg)
{
    pthread_mutex_lock(&team_lock);
    team_total++; // RACE: the last worker is never joined by the close
    pthread_mutex_unlock(&team_lock);
    return arg;
}

static struct team *team_open(int n)
{
    struct team *t = malloc(sizeof *t);
    t->size = n;
    for (int i = 0; i < t->size; i++)
        pthread_create(&t->ids[i], NULL, team_work, NULL);
    return t;
}

static void team_shrink(struct team *t) { t->size--; }

static void team_close(struct team *q)
{
    for (int j = 0; j < q->size; j++)
        pthread_join(q->ids[j], NULL);
}

int main(void)
{
    struct pool *p = pool_open(3);
    pool_close(p);
    p->done = 0; // NORACE needs=joins: every worker was joined
    struct team *t = team_open(3);
    team_shrink(t);
    team_close(t);
    team_total = 0; // RACE: the last worker may still run
    pthread_join(t->ids[2], NULL);
    printf("%ld %ld\n", p->done, team_total);
    return 0;
}
