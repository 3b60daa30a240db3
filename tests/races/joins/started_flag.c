/* A create under a condition, with a flag set right after it, and the join under a test of
 * that flag: `if (…) { pthread_create(&t, …); started = 1; } … if (started) pthread_join(t,
 * …);`. Where the flag is set the create ran, once; where it is not, no thread was started:
 * either way the worker has ended after the second test, and main's update of `counted` is
 * ordered (NORACE; reported before). The second worker's flag is set only when `verbose`,
 * which is off: its thread is still running after the test, and `tallied` races until the
 * join at the end (RACE). */
#include <pthread.h>
#include <stdio.h>

static long counted, tallied;
static int verbose;

static void *count(void *arg)
{
    counted++; // NORACE needs=joins: joined where the flag says it was started
    return arg;
}

static void *tally(void *arg)
{
    for (int i = 0; i < 10000; i++)
        tallied++; // RACE: its flag was not set
    return arg;
}

int main(int argc, char **argv)
{
    pthread_t t, u;
    int started = 0, u_started = 0;
    (void)argv;
    verbose = argc > 5;
    if (argc > 0) {
        pthread_create(&t, NULL, count, NULL);
        started = 1;
    }
    if (started)
        pthread_join(t, NULL);
    counted++; // NORACE needs=joins: the worker, if any, was joined
    if (argc > 0) {
        pthread_create(&u, NULL, tally, NULL);
        if (verbose)
            u_started = 1;
    }
    if (u_started)
        pthread_join(u, NULL);
    for (int i = 0; i < 10000; i++)
        tallied++; // RACE: the second worker may still run
    if (!u_started && argc > 0)
        pthread_join(u, NULL);
    printf("%ld\n", counted);
    return 0;
}
