/* A table of (callback, void *ctx) pairs where each entry's context has a
 * different type: on_timer gets a `struct timer_state *`, on_log a
 * `struct log_state *`. Both workers run every entry. on_timer updates its
 * state under `timer_m`: race-free. on_log appends to its state without any
 * lock: RACE on `len` and on `stamps`. Both state structs begin with a `long`
 * (one a scalar, one an array of them), so a `long *` may read the first of
 * either: locksmith makes the two first members one location, a FALSE-ALARM on
 * `fired`. What follows a common initial sequence is each struct's own (reading
 * it through the other type is undefined behaviour), and the sequence ends at
 * an array, so `last` is the timer state's alone: NORACE, with the void*
 * model, where the two views were one conflated blob before. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 2000

struct timer_state { long fired; long last; };
struct log_state { long stamps[16]; int len; };
struct entry { void (*cb)(void *, int); void *ctx; };

pthread_mutex_t timer_m = PTHREAD_MUTEX_INITIALIZER;
struct timer_state timers;
struct log_state logs;

static void on_timer(void *ctx, int v)
{
    struct timer_state *t = ctx;
    pthread_mutex_lock(&timer_m);
    t->fired++; // FALSE-ALARM: timer_m held; but both contexts start with a long, so locksmith makes `fired` one location with the log state's `stamps`, which on_log writes without timer_m
    t->last = v; // NORACE needs=void: timer_m held, and `last` is past the members the two states share
    pthread_mutex_unlock(&timer_m);
}

static void on_log(void *ctx, int v)
{
    struct log_state *l = ctx;
    int n = l->len; // RACE: both workers, no lock
    l->stamps[v % 16] = n; // RACE: both workers, no lock
    l->len = n + 1; // RACE: both workers, no lock
}

static const struct entry table[2] = { { on_timer, &timers }, { on_log, &logs } };

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++)
        for (int r = 0; r < ROUNDS; r++)
            table[i].cb(table[i].ctx, r);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
