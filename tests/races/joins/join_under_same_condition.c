/* Threads started and joined under one condition, `if (parallel) pthread_create(…); … if
 * (parallel) pthread_join(…);`, as a tree of workers joins the children it has. `parallel` is
 * set once and never changed, so where the second test fails no thread was started: main's
 * reads of `sum` after it are ordered after the worker (NORACE). `verbose` is changed between
 * its two tests, so the logger may be started and never joined: main's read of `lines` after
 * the second test still races with the logger's write (RACE on both), as does main's write of
 * `sum` before the join (RACE on both). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static long sum;
static long lines;

static void *worker(void *arg)
{
    (void)arg;
    sum += 42; // RACE: main writes sum before joining the worker
    return NULL;
}

static void *logger(void *arg)
{
    (void)arg;
    lines = 7; // RACE: main reads it where the logger may not have been joined
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t, l;
    int parallel = argc < 5;
    int verbose = argc < 5;
    (void)argv;
    if (parallel)
        pthread_create(&t, NULL, worker, NULL);
    if (verbose)
        pthread_create(&l, NULL, logger, NULL);
    sum += 1; // RACE: the worker may be running
    verbose = argc > 7;
    if (parallel)
        pthread_join(t, NULL);
    if (verbose)
        pthread_join(l, NULL);
    printf("%ld\n", sum); // NORACE needs=joins: the worker was joined, or never started
    usleep(1000);
    printf("%ld\n", lines); // RACE: the logger was started and not joined
    return 0;
}
