/* A thread library's launcher, as yarn's: `launch` keeps the routine in a fresh
 * capsule and starts the trampoline `ignition`, which calls it and then hands
 * the capsule to its cleanup `reenter`, which reads the capsule (its routine,
 * for a count of finished threads) before it frees it. `launch(tally)` runs
 * once, `launch(bump)` in a loop. Each routine gets its own copy of `launch`
 * and `ignition`, and each copy of `ignition` its own `reenter`: shared, the
 * helper's read of the routine would meet every capsule's, and the copies'
 * calls through their capsule would reach every routine again. So the tally
 * thread is one thread: what only it writes is NORACE needs=context. The
 * bump threads are many: `bumps` is a RACE, and so is the count `finished`,
 * written by every thread without a lock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct capsule {
    void (*probe)(void *);
    void *payload;
};

static long tallied, bumps, finished;

static void reenter(void *arg)
{
    struct capsule *capsule = arg;
    finished += capsule->probe != NULL; // RACE
    free(capsule);
}

static void *ignition(void *arg)
{
    struct capsule *capsule = arg;
    capsule->probe(capsule->payload);
    reenter(arg);
    return NULL;
}

static pthread_t launch(void (*probe)(void *), void *payload)
{
    struct capsule *capsule = malloc(sizeof *capsule);
    pthread_t id;
    if (capsule == NULL)
        abort();
    capsule->probe = probe;
    capsule->payload = payload;
    if (pthread_create(&id, NULL, ignition, capsule) != 0)
        abort();
    return id;
}

static void tally(void *arg)
{
    tallied += (long)arg; // NORACE needs=context
}

static void bump(void *arg)
{
    bumps += (long)arg; // RACE
}

int main(void)
{
    pthread_t t, b[3];
    t = launch(tally, (void *)1);
    for (int i = 0; i < 3; i++)
        b[i] = launch(bump, (void *)2);
    for (int i = 0; i < 3; i++)
        pthread_join(b[i], NULL);
    pthread_join(t, NULL);
    printf("%ld %ld %ld\n", tallied, bumps, finished);
    return 0;
}
