/* A generic list whose nodes carry void* payloads (struct job). main builds
 * the list before the first fork. Both workers walk it with list_foreach and
 * a callback that casts the payload back. count_hit bumps `hits` holding
 * `list_m`: NORACE. mark_seen writes `seen` without any lock from both
 * workers: RACE. (Each callback takes its own lock, so the verdicts do not
 * depend on which callback list_foreach is analysed to call.)
 * needs=field: with one location per struct object, the race on `seen`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NJOBS 8
#define ROUNDS 200

struct gnode { void *data; struct gnode *next; };
struct job { int id; long hits; int seen; };

pthread_mutex_t list_m = PTHREAD_MUTEX_INITIALIZER;
struct gnode *jobs;

static void list_foreach(struct gnode *l, void (*f)(void *, void *), void *env)
{
    for (; l != NULL; l = l->next)
        f(l->data, env);
}

static void count_hit(void *data, void *env)
{
    struct job *j = data;
    long *tot = env;
    pthread_mutex_lock(&list_m);
    j->hits++; // NORACE needs=field: list_m held
    pthread_mutex_unlock(&list_m);
    *tot += j->id;
}

static void mark_seen(void *data, void *env)
{
    struct job *j = data;
    (void)env;
    j->seen = 1; // RACE: both workers, no lock
}

static void *worker(void *arg)
{
    long tot = 0;
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        list_foreach(jobs, count_hit, &tot);
        list_foreach(jobs, mark_seen, NULL);
    }
    return (void *)tot;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < NJOBS; i++) {
        struct job *j = calloc(1, sizeof *j);
        struct gnode *n = malloc(sizeof *n);
        j->id = i;
        n->data = j;
        n->next = jobs;
        jobs = n;
    }
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
