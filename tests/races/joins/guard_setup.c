/* A pool built on first use, as pigz builds its own: batch() calls setup(),
 * which returns at once while the gate `pool` is set and otherwise creates it
 * and resets `jobs`, then starts one more worker, where the gate is certainly
 * set. Workers run across batches until finish() joins them all (a list
 * emptied by joining) and resets the gate. Where setup() sees the gate null,
 * no worker runs: its accesses of `pool` and `jobs` and the workers' are
 * NORACE needs=joins. `early`, started where the gate is not set, runs across
 * the rounds: its write of `seen` and setup()'s store are a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct gate { pthread_mutex_t mu; };
struct node { pthread_t tid; struct node *link; };
static struct gate *pool;
static struct node *roster;
static long jobs, seen;

static void setup(void)
{
    if (pool != NULL) // NORACE needs=joins
        return;
    pool = malloc(sizeof *pool); // NORACE needs=joins
    if (pool == NULL)
        abort();
    pthread_mutex_init(&pool->mu, NULL);
    jobs = 0; // NORACE needs=joins
    seen = 0; // RACE
}

static void *work(void *arg)
{
    pthread_mutex_lock(&pool->mu); // NORACE needs=joins
    jobs += (long)arg; // NORACE needs=joins
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

static void *early(void *arg) { seen = (long)arg; return NULL; } // RACE

static void batch(long k)
{
    setup();
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        abort();
    pthread_create(&n->tid, NULL, work, (void *)k);
    n->link = roster;
    roster = n;
}

static void finish(void)
{
    while (roster != NULL) {
        struct node *n = roster;
        pthread_join(n->tid, NULL);
        roster = n->link;
        free(n);
    }
    pthread_mutex_destroy(&pool->mu);
    free(pool);
    pool = NULL;
}

int main(void)
{
    pthread_t e;
    pthread_create(&e, NULL, early, NULL);
    for (int round = 0; round < 3; round++) {
        for (long k = 0; k < 3; k++)
            batch(k);
        finish();
    }
    pthread_join(e, NULL);
    printf("%ld %ld\n", jobs, seen);
    return 0;
}
