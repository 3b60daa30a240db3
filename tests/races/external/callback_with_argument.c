/* Unknown code given a function and an object may call the function on the
 * object: `lib_apply(bump, c)` runs `bump(c)`. The worker's `bump` writes
 * `c->hits` while main writes it with no lock: RACE on both. `c->seen` is
 * written by both holding `c->m`, which is race-free, but locksmith warns:
 * the object was handed to unknown code, so it is external memory, one
 * object per type, whose mutex stands for many (a known imprecision). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct counter {
    pthread_mutex_t m;
    unsigned hits;
    unsigned seen;
};

void lib_apply(void (*cb)(struct counter *), struct counter *c);

#ifndef __LOCKSMITH__
void lib_apply(void (*cb)(struct counter *), struct counter *c)
{
    cb(c);
}
#endif

static void bump(struct counter *c)
{
    c->hits++; // RACE: main writes it too
    pthread_mutex_lock(&c->m);
    c->seen++; // FALSE-ALARM: c->m held; c is external memory, whose mutex stands for many
    pthread_mutex_unlock(&c->m);
}

static void *worker(void *arg)
{
    lib_apply(bump, arg);
    return NULL;
}

int main(void)
{
    pthread_t t;
    struct counter *c = calloc(1, sizeof *c);
    if (c == NULL)
        return 1;
    pthread_mutex_init(&c->m, NULL);
    pthread_create(&t, NULL, worker, c);
    c->hits++; // RACE: bump writes it in the worker
    pthread_mutex_lock(&c->m);
    c->seen++; // FALSE-ALARM: c->m held; c is external memory, whose mutex stands for many
    pthread_mutex_unlock(&c->m);
    pthread_join(t, NULL);
    printf("%u %u\n", c->hits, c->seen);
    free(c);
    return 0;
}
