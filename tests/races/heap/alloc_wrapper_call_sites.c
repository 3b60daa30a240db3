/* Allocation wrappers whose objects are used at different types. Each call
 * of xmalloc (and of xzalloc, which calls it) makes an object of its own, as
 * malloc would: `stats` is only touched under `m`, `scratch` only by main,
 * and `title` is written before the worker starts: NORACE, though one
 * wrapper returns all of them (a character view used to merge them all).
 * `shared` comes from xzalloc and both threads bump it unlocked: RACE.
 * remember() keeps what it allocates in `last`, so it is no plain wrapper:
 * the worker writes `last->hits` while main writes `kept->hits`: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stats {
    long hits;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct stats *stats, *shared, *kept, *last;
static char *scratch, *title;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    return p;
}

static void *xzalloc(size_t n)
{
    void *p = xmalloc(n);
    memset(p, 0, n);
    return p;
}

static void *remember(size_t n)
{
    last = xzalloc(n);
    return last;
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&m);
    stats->hits++; // NORACE: m held
    pthread_mutex_unlock(&m);
    shared->hits++; // RACE: main bumps it unlocked too
    last->hits++; // RACE: main writes it through kept
    return (void *)(long)(title[0] + (long)arg); // NORACE: written before the start
}

int main(void)
{
    pthread_t t;
    stats = xzalloc(sizeof *stats);
    shared = xzalloc(sizeof *shared);
    kept = remember(sizeof *kept);
    title = xmalloc(16);
    strcpy(title, "title");
    scratch = xmalloc(64);
    pthread_create(&t, NULL, worker, NULL);
    memset(scratch, 'x', 64); // NORACE: only main sees scratch
    scratch[0] = 'y'; // NORACE: only main sees scratch
    shared->hits++; // RACE: the worker bumps it unlocked
    kept->hits++; // RACE: the worker writes it through last
    pthread_join(t, NULL);
    printf("%ld %ld %c\n", stats->hits, shared->hits, scratch[0]);
    return 0;
}
