/* Each worker gets a fresh job object of its own, which main also keeps in
 * a local array of pointers at the worker's index: main fills the job in
 * before its create, and reads and frees it in the loop that joins its
 * worker, after that worker's join, while the workers still running own
 * other jobs: NORACE. The same through a local copy (`x = malloc(…); …;
 * jobs[i] = x`). main reads a job before joining its worker, or the next
 * worker's job after joining this one: RACE. main keeps the reports through
 * a pointer it also publishes in a global, which a watcher reads: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct job {
    int in;
    long out;
};

static void *square(void *arg)
{
    struct job *j = arg;
    j->out = (long)j->in * j->in; // NORACE needs=existentials: only this worker's job
    return NULL;
}

static void *cube(void *arg)
{
    struct job *j = arg;
    j->out = (long)j->in * j->in * j->in; // NORACE needs=existentials: only this worker's job
    return NULL;
}

static void *early(void *arg)
{
    struct job *j = arg;
    j->out = j->in + 1; // RACE: main reads it before the join
    return NULL;
}

static void *next(void *arg)
{
    struct job *j = arg;
    j->out = j->in - 1; // RACE: main reads it after joining the previous worker
    return NULL;
}

static struct job *shown;

static void *watcher(void *arg)
{
    (void)arg;
    struct job *s = shown;
    return s ? (void *)s->out : NULL; // RACE: main writes the report it published
}

int main(void)
{
    pthread_t t[N], u[N], v[N], w[N], watch;
    struct job *jobs[N], *copies[N], *seen[N], *after[N];
    long total = 0;
    for (int i = 0; i < N; i++) {
        jobs[i] = malloc(sizeof *jobs[i]);
        if (!jobs[i])
            abort();
        jobs[i]->in = i; // NORACE needs=uniqueness: before its worker starts
        pthread_create(&t[i], NULL, square, jobs[i]);
    }
    for (int i = 0; i < N; i++) {
        struct job *x = malloc(sizeof *x);
        if (!x)
            return 1;
        x->in = i; // NORACE needs=uniqueness: before its worker starts
        copies[i] = x;
        pthread_create(&u[i], NULL, cube, x);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        total += jobs[i]->out; // NORACE needs=existentials: its worker has ended
        free(jobs[i]);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(u[i], NULL);
        total += copies[i]->out; // NORACE needs=existentials: its worker has ended
        free(copies[i]);
    }
    for (int i = 0; i < N; i++) {
        seen[i] = malloc(sizeof *seen[i]);
        seen[i]->in = i;
        pthread_create(&v[i], NULL, early, seen[i]);
    }
    for (int i = 0; i < N; i++) {
        total += seen[i]->out; // RACE: its worker may still run
        pthread_join(v[i], NULL);
        free(seen[i]);
    }
    for (int i = 0; i < N; i++) {
        after[i] = malloc(sizeof *after[i]);
        after[i]->in = i;
        pthread_create(&w[i], NULL, next, after[i]);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(w[i], NULL);
        if (i + 1 < N)
            total += after[i + 1]->out; // RACE: the next worker may still run
    }
    for (int i = 0; i < N; i++)
        free(after[i]);
    struct job *report[1];
    report[0] = malloc(sizeof *report[0]);
    report[0]->out = 0;
    shown = report[0];
    pthread_create(&watch, NULL, watcher, NULL);
    report[0]->out = total; // RACE: the watcher reads it through shown
    pthread_join(watch, NULL);
    printf("%ld\n", report[0]->out);
    free(report[0]);
    return 0;
}
