/* A small task library, as thread libraries are written: `task_start` allocates a handle,
 * creates the thread into its `tid` field, links the handle into a list of all tasks under a
 * lock and returns it; `task_finish` joins the handle's thread (through `wait_tid`, a join
 * wrapper of its own), unlinks the handle and frees it; `task_stop` finishes through
 * `task_finish`. A call `h = task_start(…)` is a create of the id in `h->tid`, and
 * `task_finish(h)` or `task_stop(h)` a join of it: what the first task wrote is main's after
 * `task_finish(first)`, and the second task's after `task_stop(second)` (NORACE). Between the
 * start of the second task and its stop, main's update of `seconds` races. The handle's `tid`
 * is written by the one create of the program only, which the join needs (the list of all
 * tasks lets any thread reach every handle). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task { pthread_t tid; int state; struct task *next; };

static pthread_mutex_t tasks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct task *tasks;
static long firsts, seconds;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    return p != NULL ? p : (exit(1), NULL);
}

static struct task *task_start(void *(*run)(void *), void *arg)
{
    struct task *t = xmalloc(sizeof *t);
    t->state = 0;
    if (pthread_create(&t->tid, NULL, run, arg) != 0)
        exit(1);
    pthread_mutex_lock(&tasks_lock);
    t->next = tasks;
    tasks = t;
    pthread_mutex_unlock(&tasks_lock);
    return t;
}

static void wait_tid(pthread_t tid)
{
    pthread_join(tid, NULL);
}

static void task_finish(struct task *done)
{
    wait_tid(done->tid);
    pthread_mutex_lock(&tasks_lock);
    struct task **link = &tasks;
    while (*link != done)
        link = &(*link)->next;
    *link = done->next;
    pthread_mutex_unlock(&tasks_lock);
    free(done);
}

static void task_stop(struct task *t) { task_finish(t); }

static void *count_firsts(void *arg)
{
    firsts++; // NORACE needs=joins: main reads it only after task_finish(first)
    return arg;
}

static void *count_seconds(void *arg)
{
    for (int i = 0; i < 10000; i++)
        seconds++; // RACE: main updates it before task_stop(second)
    return arg;
}

int main(void)
{
    struct task *first = task_start(count_firsts, NULL);
    struct task *second = task_start(count_seconds, NULL);
    task_finish(first);
    firsts++; // NORACE needs=joins: the first task was joined by task_finish
    for (int i = 0; i < 10000; i++)
        seconds++; // RACE: the second task is still running
    task_stop(second);
    seconds++; // NORACE needs=joins: the second task was joined by task_stop
    printf("%ld %ld\n", firsts, seconds);
    return 0;
}
