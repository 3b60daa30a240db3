/* A thread pool whose workers are structs in a block the pool holds: each worker's thread id is
 * its `tid` field, and the worker's own address is its thread's argument
 * (`pthread_create(&p->workers[i].tid, …, &p->workers[i])`). The pool's create wrapper fills
 * the block by a create loop bounded by `p->count`, set before it; its join wrapper joins
 * `q->workers[j].tid` below `q->count`. Nothing but the create writes a `tid` field, so main's
 * read of the team's counter after `team_stop` is ordered (NORACE; reported before). The gang
 * restarts its first member into the same field (detaching the thread there first): that first
 * thread is never joined, and main's read of `gang_last` races with it (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct team;

struct worker {
    pthread_t tid;
    struct team *team;
};

struct team {
    pthread_mutex_t lock;
    struct worker *workers;
    int count;
    long done;
};

struct gang_member {
    pthread_t tid;
};

struct gang {
    struct gang_member *members;
    int count;
};

static long gang_last;

static void *work(void *arg)
{
    struct worker *self = arg;
    pthread_mutex_lock(&self->team->lock);
    self->team->done++; // NORACE needs=joins: under the team's lock; main reads it after the joins
    pthread_mutex_unlock(&self->team->lock);
    return NULL;
}

static struct team *team_start(int n)
{
    struct team *t = malloc(sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    t->done = 0;
    t->count = n;
    t->workers = calloc(n, sizeof(struct worker));
    for (int k = 0; k < n; k++)
        t->workers[k].team = t;
    for (int i = 0; i < t->count; i++)
        pthread_create(&t->workers[i].tid, NULL, work, &t->workers[i]);
    return t;
}

static void team_stop(struct team *q)
{
    for (int j = 0; j < q->count; j++)
        pthread_join(q->workers[j].tid, NULL);
}

static void *gang_work(void *arg)
{
    gang_last = (long)arg; // RACE: the first thread of the first member is never joined
    return NULL;
}

static struct gang *gang_start(int n)
{
    struct gang *g = malloc(sizeof *g);
    g->count = n;
    g->members = calloc(n, sizeof(struct gang_member));
    for (int i = 0; i < g->count; i++)
        pthread_create(&g->members[i].tid, NULL, gang_work, &g->members[i]);
    return g;
}

static void gang_restart(struct gang *g)
{
    pthread_detach(g->members[0].tid);
    pthread_create(&g->members[0].tid, NULL, gang_work, NULL);
}

static void gang_stop(struct gang *q)
{
    for (int j = 0; j < q->count; j++)
        pthread_join(q->members[j].tid, NULL);
}

int main(void)
{
    struct team *t = team_start(3);
    team_stop(t);
    printf("%ld\n", t->done); // NORACE needs=joins: every worker was joined
    struct gang *g = gang_start(3);
    gang_restart(g);
    gang_stop(g);
    printf("%ld\n", gang_last); // RACE: the detached first thread was never joined
    usleep(20000);
    return 0;
}
