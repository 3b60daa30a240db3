/* A create wrapper that returns the thread's id by value: `start` creates into a local and
 * returns it, so `t = start(…)` is a create of `t`, which `pthread_join(t)` or the join
 * wrapper `finish(t)` ends. What the loader wrote is main's after `finish(loader)`, and the
 * counter's total after the counters are joined (NORACE; both reported when `start`'s id was
 * lost). `start_logged` also keeps the id in a global, which another thread might overwrite
 * or join: no wrapper, and main's read of `logged` after joining its id still races (as far
 * as locksmith knows, a FALSE-ALARM). While the spare thread runs, main's update of `spares`
 * races with it (RACE): it is joined only after. */
#include <pthread.h>
#include <stdio.h>

static long loaded, counted, logged, spares;
static pthread_t last_started;

static void *load(void *arg) { loaded = 42; return arg; }
static void *count(void *arg)
{
    for (int i = 0; i < 1000; i++)
        __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED);
    return arg;
}
static void *log_once(void *arg) { logged = 1; return arg; }
static void *spare(void *arg) { spares++; return arg; } // RACE: main updates spares while this runs

static pthread_t start(void *(*routine)(void *))
{
    pthread_t t;
    if (pthread_create(&t, NULL, routine, NULL) != 0)
        perror("pthread_create");
    return t;
}

static pthread_t start_logged(void *(*routine)(void *))
{
    pthread_t t;
    pthread_create(&t, NULL, routine, NULL);
    last_started = t;
    return t;
}

static void finish(pthread_t t) { pthread_join(t, NULL); }

int main(void)
{
    pthread_t loader = start(load);
    pthread_t counters[2];
    for (int i = 0; i < 2; i++)
        counters[i] = start(count);
    pthread_t logger = start_logged(log_once);
    pthread_t spare_thread;
    spare_thread = start(spare);
    finish(loader);
    printf("%ld\n", loaded); // NORACE needs=joins: the loader was joined
    for (int i = 0; i < 2; i++)
        pthread_join(counters[i], NULL);
    printf("%ld\n", counted); // NORACE needs=joins: every counter was joined
    finish(logger);
    printf("%ld\n", logged); // FALSE-ALARM: start_logged keeps the id in a global, so it is no wrapper
    spares++; // RACE: the spare thread is still running
    finish(spare_thread);
    printf("%ld %lu\n", spares, (unsigned long)last_started); // NORACE: joined
    return 0;
}
