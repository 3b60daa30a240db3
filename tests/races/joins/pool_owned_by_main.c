/* A thread pool in a global that `main` owns: `pool_init(&pool, n)`, called once in the whole
 * program, by `main`, fills it (its thread ids in a block, their number in `size`) and starts
 * its workers; `pool_destroy(&pool)` in `main` joins `threads[0 .. size)`. Nothing else writes
 * the members, so main's reset of the pool's counter after the destroy is ordered (NORACE;
 * reported before). The team's workers add to `team_total` without a lock (RACE), and its
 * destroy starts at the second worker: the first one is joined only after main's reset of
 * `team_total`, which races with it too (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct pool {
    pthread_mutex_t lock;
    pthread_t *threads;
    int size;
    long done;
};

struct team {
    pthread_t *threads;
    int size;
};

static struct pool pool = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};
static struct team team;
static long team_total;

static void *work(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    p->done++; // NORACE needs=joins: under the pool's lock, and main's reset is after the joins
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static int pool_init(struct pool *p, int n)
{
    p->size = n;
    p->threads = malloc(n * sizeof(pthread_t));
    if (!p->threads)
        return -1;
    for (int i = 0; i < n; i++)
        pthread_create(&p->threads[i], NULL, work, p);
    return 0;
}

static void pool_destroy(struct pool *q)
{
    for (int j = 0; j < q->size; j++)
        pthread_join(q->threads[j], NULL);
}

static void *team_work(void *arg)
{
    team_total++; // RACE: the workers race, and the first is joined only after main's reset
    return arg;
}

static void team_init(struct team *t, int n)
{
    t->size = n;
    t->threads = malloc(n * sizeof(pthread_t));
    for (int i = 0; i < n; i++)
        pthread_create(&t->threads[i], NULL, team_work, NULL);
}

static void team_destroy(struct team *q)
{
    for (int j = 1; j < q->size; j++)
        pthread_join(q->threads[j], NULL);
}

int main(void)
{
    if (pool_init(&pool, 3) != 0)
        return 1;
    pool_destroy(&pool);
    pool.done = 0; // NORACE needs=joins: every worker was joined
    team_init(&team, 3);
    team_destroy(&team);
    team_total = 0; // RACE: the first worker may still run
    pthread_join(team.threads[0], NULL);
    printf("%ld %ld\n", pool.done, team_total);
    return 0;
}
