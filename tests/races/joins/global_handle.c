/* Handles kept in global variables: `pipeline` starts the writer task into the global `writer`
 * and joins it through that global in the same function, then clears it. Nothing else stores
 * a handle there (only NULL), `pipeline` runs in main's thread only, and nothing between the
 * start and the join can change `writer`: what the writer task wrote is main's after the join
 * (NORACE). The global `loader` is given the handles of two tasks one after the other and
 * joined once: the second task is joined (NORACE), but the first, whose handle was
 * overwritten, is still running when `pipeline` updates what it writes (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
    pthread_t tid;
    int done;
};

static struct task *writer;
static struct task *loader;
static long written, loaded_first, loaded_second;

static struct task *task_start(void *(*run)(void *))
{
    struct task *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->done = 0;
    if (pthread_create(&t->tid, NULL, run, NULL) != 0)
        exit(1);
    return t;
}

static void task_join(struct task *t)
{
    pthread_join(t->tid, NULL);
    free(t);
}

static void *write_all(void *arg)
{
    written++; // NORACE needs=joins: pipeline reads it after task_join(writer)
    return arg;
}

static void *load_first(void *arg)
{
    for (int i = 0; i < 10000; i++)
        loaded_first++; // RACE: its handle was overwritten before the join
    return arg;
}

static void *load_second(void *arg)
{
    loaded_second++; // NORACE needs=joins: joined through loader
    return arg;
}

static void pipeline(void)
{
    writer = task_start(write_all);
    loader = task_start(load_first);
    loader = task_start(load_second);
    task_join(writer);
    writer = NULL;
    written++; // NORACE needs=joins: the writer was joined through writer
    task_join(loader);
    loader = NULL;
    loaded_second++; // NORACE needs=joins: the second loader was joined through loader
    for (int i = 0; i < 10000; i++)
        loaded_first++; // RACE: the first loader may still run
    printf("%ld %ld %ld\n", written, loaded_first, loaded_second);
}

int main(void)
{
    pipeline();
    return 0;
}
