/* A create wrapper whose thread is not certainly joined. `spawn` starts the
 * worker with the caller's thread id; `wait_if` joins it only when asked to,
 * so it is no join wrapper. main reads `level` after `wait_if(t, 0)` while
 * the worker still writes it: RACE on both lines (see wrapper_create_join.c
 * for the joined case). */
#include <pthread.h>
#include <stdio.h>

#define ITER 200000

long level;

static int spawn(pthread_t *t, void *(*fn)(void *))
{
    return pthread_create(t, NULL, fn, NULL);
}

static void wait_if(pthread_t t, int really)
{
    if (really)
        pthread_join(t, NULL);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        level = i; // RACE: main reads level; wait_if did not join this thread
    return NULL;
}

int main(void)
{
    pthread_t t;
    long seen = 0;
    spawn(&t, worker);
    wait_if(t, 0);
    for (int i = 0; i < ITER / 10; i++)
        seen += level; // RACE: the worker may still be running
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
