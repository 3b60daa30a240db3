/* A thread library's `launch` keeps the routine and its argument in a fresh
 * capsule and starts every thread at its one pthread_create, running the
 * trampoline `ignition`, which calls the capsule's routine. `launch(tally)`
 * runs once and `launch(bump)` runs in a loop: each routine its callers name
 * gets its own copy of `launch` and `ignition`, so the tally thread is one
 * thread and what only it writes is no race (NORACE; reported when every
 * launch was one kind of thread, started in a loop). The bump threads are
 * many: `bumps` races among them (RACE). `twice` is written by a routine
 * launched twice, one call per line: still two threads (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct capsule {
    void (*probe)(void *);
    void *payload;
};

struct thread { pthread_t id; };

static long tallied, bumps, twice;
static void *ignition(void *arg)
{
    struct capsule *capsule = arg;
    capsule->probe(capsule->payload);
    free(capsule);
    return NULL;
}

static struct thread *launch(void (*probe)(void *), void *payload)
{
    struct capsule *capsule = malloc(sizeof *capsule);
    struct thread *th = malloc(sizeof *th);
    if (!capsule || !th) exit(1);
    capsule->probe = probe;
    capsule->payload = payload;
    if (pthread_create(&th->id, NULL, ignition, capsule) != 0) exit(1);
    return th;
}

static void join(struct thread *th)
{
    pthread_join(th->id, NULL);
    free(th);
}

static void tally(void *arg)
{
    (void)arg;
    tallied += 1; // NORACE needs=context: the one tally thread alone writes it
}

static void bump(void *arg)
{
    (void)arg;
    bumps += 1; // RACE: every bump thread writes it
}

static void again(void *arg)
{
    (void)arg;
    twice += 1; // RACE: two again threads run at once
}

int main(void)
{
    struct thread *bumpers[3];
    struct thread *tallier = launch(tally, NULL);
    for (int i = 0; i < 3; i++)
        bumpers[i] = launch(bump, NULL);
    struct thread *first = launch(again, NULL);
    struct thread *second = launch(again, NULL);
    join(first);
    join(second);
    for (int i = 0; i < 3; i++)
        join(bumpers[i]);
    join(tallier);
    printf("%ld %ld %ld\n", tallied, bumps, twice); // NORACE: every thread was joined
    return 0;
}
