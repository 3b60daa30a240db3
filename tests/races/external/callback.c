/* Unknown code calls the functions it is given: `lib_apply(bump)` runs
 * `bump`, which writes `g`, while main writes `g`: RACE on both. A function
 * the program never hands over (`untouched`) never runs: its write of `g`
 * is not an access of any thread. `done` is written by `bump` and read by
 * main, both holding `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned g;
int done;

void lib_apply(void (*cb)(void));

#ifndef __LOCKSMITH__
void lib_apply(void (*cb)(void))
{
    cb();
}
#endif

static void bump(void)
{
    g++; // RACE: main writes it while the library runs bump
    pthread_mutex_lock(&m);
    done = 1; // NORACE: m held
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
    lib_apply(bump);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    g++; // RACE: bump writes it in the worker
    pthread_mutex_lock(&m);
    printf("%d\n", done); // NORACE: m held
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    return 0;
}
