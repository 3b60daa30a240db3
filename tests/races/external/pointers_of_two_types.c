/* Unknown code hands out pointers of two types: a `struct stats *` from
 * `lib_stats` and, from `lib_load`, the `struct job *` that main stored with
 * `lib_store`. External memory keeps one object per type, so the two kinds
 * of pointer must not meet: if they did, the job and the statistics would be
 * one conflated object and the callback main put in the job would be lost,
 * and with it the race in `count_run` on `runs`, which both workers reach
 * through the job's callback, unlocked: RACE. `stats->calls` is bumped by
 * both workers through the library's pointer under `m`: NORACE (the
 * call of `lib_stats` itself touches the library's own state, reported apart). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job;
typedef unsigned (*job_fn)(struct job *, unsigned);

struct job {
    job_fn run;
};

struct stats {
    unsigned calls;
};

struct stats *lib_stats(void);
void lib_store(void *p);
void *lib_load(void);
unsigned lib_apply(job_fn f, struct job *j, unsigned v);

#ifndef __LOCKSMITH__
static struct stats lib_own;
static void *lib_slot;
struct stats *lib_stats(void)
{
    return &lib_own;
}
void lib_store(void *p)
{
    lib_slot = p;
}
void *lib_load(void)
{
    return lib_slot;
}
unsigned lib_apply(job_fn f, struct job *j, unsigned v)
{
    return f(j, v);
}
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned runs;

static unsigned nothing(struct job *j, unsigned v)
{
    (void)j;
    return v;
}

static unsigned count_run(struct job *j, unsigned v)
{
    struct stats *s = lib_stats();
    (void)j;
    runs += v; // RACE: both workers run the job's callback unlocked
    pthread_mutex_lock(&m);
    s->calls++; // NORACE: always under m
    pthread_mutex_unlock(&m);
    return v;
}

static void *applier(void *arg)
{
    struct job *j = arg;
    lib_apply(nothing, j, 1);
    return NULL;
}

static void *worker(void *arg)
{
    struct job *j = lib_load();
    j->run(j, 1);
    return arg;
}

int main(void)
{
    pthread_t t[3];
    struct job *j = malloc(sizeof *j);
    if (j == NULL)
        return 1;
    j->run = count_run;
    lib_store(j);
    pthread_create(&t[0], NULL, worker, NULL);
    pthread_create(&t[1], NULL, worker, NULL);
    pthread_create(&t[2], NULL, applier, j);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], NULL);
    printf("%u\n", runs);
    free(j);
    return 0;
}
