/* Handles of a thread library kept in an array: `task_start` returns a fresh handle whose `tid`
 * its one create wrote, `task_finish` joins a handle's thread. A create loop stores a handle
 * per element, `ts[i] = task_start(…)`, and a join loop over the same range finishes each
 * element: every worker has ended after it, so main's read of `summed` is ordered (NORACE;
 * reported before). A second group's join loop stops one short of its create loop: its last
 * worker still runs while main updates `counted` (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 4

struct task {
    pthread_t tid;
    int state;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long summed, counted;

static struct task *task_start(void *(*run)(void *), void *arg)
{
    struct task *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->state = 0;
    if (pthread_create(&t->tid, NULL, run, arg) != 0)
        exit(1);
    return t;
}

static void task_finish(struct task *t)
{
    pthread_join(t->tid, NULL);
    free(t);
}

static void *sum(void *arg)
{
    pthread_mutex_lock(&m);
    summed += (long)arg; // NORACE needs=joins: under m, and main reads after the join loop
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *count(void *arg)
{
    if (arg != NULL)
        usleep(20000); /* the last counter runs after main's update */
    for (int i = 0; i < 10000; i++)
        counted++; // RACE: the last counter is not joined before main's update
    return arg;
}

int main(void)
{
    struct task *ts[N], *cs[N];
    for (int i = 0; i < N; i++)
        ts[i] = task_start(sum, (void *)(long)i);
    for (int j = 0; j < N; j++)
        task_finish(ts[j]);
    printf("%ld\n", summed); // NORACE needs=joins: every summer was finished
    for (int i = 0; i < N; i++)
        cs[i] = task_start(count, i == N - 1 ? &counted : NULL);
    for (int j = 0; j < N - 1; j++)
        task_finish(cs[j]);
    for (int i = 0; i < 10000; i++)
        counted++; // RACE: cs[N - 1] still runs
    task_finish(cs[N - 1]);
    return 0;
}
