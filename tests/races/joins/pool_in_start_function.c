/* The pool of pool_owned_by_main.c, owned by run_pool, which main calls once:
 * `pool_init(&pool, n)`, its one call in the program, fills it and starts its
 * workers, and `pool_destroy(&pool)` there joins them all, so run_pool's
 * reset of the pool's counter after the destroy is ordered (NORACE). The
 * team's destroy, in run_team, starts at the second worker: the first one may
 * still run at run_team's reset of `team_total` (RACE), and the workers add
 * to it without a lock (RACE). */
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
    p->done++; // NORACE needs=joins: under the pool's lock, and the reset is after the joins
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
    team_total++; // RACE: the workers race, and the first is joined only after the reset
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

static void run_pool(void)
{
    if (pool_init(&pool, 3) != 0)
        exit(1);
    pool_destroy(&pool);
    pool.done = 0; // NORACE needs=joins: every worker was joined
}

static void run_team(void)
{
    team_init(&team, 3);
    team_destroy(&team);
    team_total = 0; // RACE: the first worker is not joined yet
    pthread_join(team.threads[0], NULL);
}

int main(void)
{
    run_pool();
    printf("%ld\n", pool.done); // NORACE needs=joins: run_pool joined every worker
    run_team();
    printf("%ld\n", team_total);
    free(pool.threads);
    free(team.threads);
    return 0;
}
