/* Threads started in a function that a thread calls. `parent` writes
 * `before` and then calls `run_child`, which starts `child` and joins it;
 * after the call, `parent` writes `after`. The child reads both: NORACE,
 * the parent's accesses are before the start or after the join of the
 * child, in a callee. `parent` also calls `start_spinner`, which starts
 * `spinner` and returns without joining it; `parent` then writes `spins`,
 * which the spinner updates: RACE on both lines. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ITER 20000

long before;
long after;
long spins;

static void *child(void *arg)
{
    long s = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++)
        s += before + after; // NORACE needs=sharing: the parent writes them before starting and after joining this thread
    return (void *)s;
}

static void *spinner(void *arg)
{
    (void)arg;
    for (int i = 0; i < 200000; i++)
        spins++; // RACE: the parent writes spins while this thread runs
    return NULL;
}

static void run_child(void)
{
    pthread_t c;
    pthread_create(&c, NULL, child, NULL);
    pthread_join(c, NULL);
}

static pthread_t start_spinner(void)
{
    pthread_t s;
    pthread_create(&s, NULL, spinner, NULL);
    return s;
}

static void *parent(void *arg)
{
    (void)arg;
    before = 1; // NORACE needs=sharing: the child does not exist yet
    run_child();
    after = 2; // NORACE needs=sharing,joins: run_child joined the child
    pthread_t s = start_spinner();
    for (int i = 0; i < ITER; i++)
        spins = 0; // RACE: the spinner is running
    pthread_join(s, NULL);
    return NULL;
}

int main(void)
{
    pthread_t p;
    pthread_create(&p, NULL, parent, NULL);
    pthread_join(p, NULL);
    printf("%ld %ld\n", before, after); // NORACE needs=sharing,joins: every thread was joined
    return 0;
}
