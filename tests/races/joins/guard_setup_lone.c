/* guard_setup.c, with one more thread per round, `stray`, started by the first
 * batch() where the gate is set, into a second list that only the end of main
 * empties: it runs when finish() resets the gate, and into the next rounds. A
 * null gate does not say that it is done: setup()'s store to `jobs` and the
 * threads' updates are a RACE. It still says that the workers are: the gate's
 * accesses are NORACE needs=joins. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct gate { pthread_mutex_t mu; };
struct node { pthread_t tid; struct node *link; };
struct aside { pthread_t tid; long round; struct aside *link; }; /* not a node */
static struct gate *pool;
static struct node *roster;
static struct aside *strays;
static long jobs;

static void setup(void)
{
    if (pool != NULL)
        return;
    pool = malloc(sizeof *pool); // NORACE needs=joins
    pthread_mutex_init(&pool->mu, NULL);
    jobs = 0; // RACE
}

static void *work(void *arg)
{
    pthread_mutex_lock(&pool->mu); // NORACE needs=joins
    jobs += (long)arg; // RACE
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

static void *stray(void *arg) { jobs += (long)arg; return NULL; } // RACE
static void batch(long k)
{
    setup();
    if (k == 0) {
        struct aside *s = malloc(sizeof *s);
        pthread_create(&s->tid, NULL, stray, (void *)1);
        s->link = strays;
        strays = s;
    }
    struct node *n = malloc(sizeof *n);
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
    for (int round = 0; round < 3; round++) {
        for (long k = 0; k < 3; k++)
            batch(k);
        finish();
    }
    while (strays != NULL) {
        struct aside *s = strays;
        pthread_join(s->tid, NULL);
        strays = s->link;
        free(s);
    }
    printf("%ld\n", jobs);
    return 0;
}
