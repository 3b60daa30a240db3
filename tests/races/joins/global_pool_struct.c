/* A worker pool kept in a global struct: the thread ids in an array member, their number in an
 * integer member set before the create loop, and the join loop bounded by the same member in
 * another function (`pool_start` / `pool_stop`). The member is written only before the create
 * loop (the struct's address is taken for its lock and the ids, but nothing writes a `size`
 * member through a pointer), so the join loop joins every worker and main's reset after
 * `pool_stop` is ordered (NORACE; reported before). So is `helped`, after a join loop bounded
 * by a global that only its initializer sets (NORACE; reported before). The second pool's
 * member is lowered by `shrink` between the loops: its join loop leaves the last two workers
 * running, and `shrunk_total` races (RACE). */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 4

struct pool {
    pthread_mutex_t lock;
    pthread_t ids[WORKERS];
    int size;
};

static struct pool pool = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};
static struct pool shrunk = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};
static long pool_total, shrunk_total, helped;
static int helpers = 2;
static pthread_t helper_ids[WORKERS];

static void *work(void *arg)
{
    pthread_mutex_lock(&pool.lock);
    pool_total++; // NORACE needs=joins: under pool.lock, and main's reset is after the joins
    helped++; // NORACE needs=joins: under pool.lock, and main's reset is after the joins
    pthread_mutex_unlock(&pool.lock);
    return arg;
}

static void *work_shrunk(void *arg)
{
    pthread_mutex_lock(&shrunk.lock);
    shrunk_total++; // RACE: two workers are never joined
    pthread_mutex_unlock(&shrunk.lock);
    return arg;
}

static void pool_start(void *(*routine)(void *))
{
    pool.size = WORKERS;
    for (int i = 0; i < pool.size; i++)
        pthread_create(&pool.ids[i], NULL, routine, NULL);
}

static void pool_stop(void)
{
    for (int i = 0; i < pool.size; i++)
        pthread_join(pool.ids[i], NULL);
}

static void shrunk_start(void)
{
    shrunk.size = WORKERS;
    for (int i = 0; i < shrunk.size; i++)
        pthread_create(&shrunk.ids[i], NULL, work_shrunk, NULL);
}

static void shrink(void) { shrunk.size = WORKERS / 2; }

static void shrunk_stop(void)
{
    for (int i = 0; i < shrunk.size; i++)
        pthread_join(shrunk.ids[i], NULL);
}

int main(void)
{
    pool_start(work);
    pool_stop();
    pool_total = 0; // NORACE needs=joins: every worker was joined
    for (int i = 0; i < helpers; i++)
        pthread_create(&helper_ids[i], NULL, work, NULL);
    for (int i = 0; i < helpers; i++)
        pthread_join(helper_ids[i], NULL);
    helped = 0; // NORACE needs=joins: every helper was joined
    shrunk_start();
    shrink();
    shrunk_stop();
    shrunk_total = 0; // RACE: the last two workers may still run
    for (int i = WORKERS / 2; i < WORKERS; i++)
        pthread_join(shrunk.ids[i], NULL);
    printf("%ld %ld %ld\n", pool_total, shrunk_total, helped);
    return 0;
}
