/* Each thread has its own copy of a `__thread` or `_Thread_local` variable: the workers
 * writing `depth` and `steps` write their own copies, as main does (NORACE). A pointer to
 * main's copy of `hits` handed to `reporter` makes that one copy shared: the reporter's
 * write through it races with main's own writes (RACE on both). `tl_total` is each thread's
 * copy too, and each thread hands `add` a pointer to its own: race-free, but locksmith takes
 * a pointer to a thread-local as one to any thread's copy (FALSE-ALARM). */
#include <pthread.h>
#include <stdio.h>

static __thread long hits;
static _Thread_local int depth;
static __thread long steps;
static __thread long tl_total;

static void add(long *p, long v)
{
    *p += v; // FALSE-ALARM: a pointer to a thread-local is taken as any thread's copy, though each caller passes its own
}

static void *worker(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        steps++; // NORACE: the worker's own copy
        depth = i; // NORACE: the worker's own copy
        add(&tl_total, i);
    }
    return arg;
}

static void *reporter(void *arg)
{
    long *main_hits = arg;
    *main_hits += 100; // RACE: main's copy, written by main too
    return NULL;
}

int main(void)
{
    pthread_t a, b, r;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_create(&r, NULL, reporter, &hits);
    for (int i = 0; i < 1000; i++)
        hits++; // RACE: the reporter writes this copy through its pointer
    depth = 1; // NORACE: main's own copy
    steps++; // NORACE: main's own copy
    add(&tl_total, 1);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(r, NULL);
    printf("%ld %d %ld %ld\n", hits, depth, steps, tl_total);
    return 0;
}
