/* A lock-free helper called under different locks by its callers.
 * set(p, v) writes *p without locking; callers hold A around set(&x, ...)
 * and B around set(&y, ...). Context-sensitively x is always accessed with
 * A and y with B: NORACE. A context-insensitive analysis merges x and y
 * through p and sees them accessed under A and under B: it warns, hence
 * needs=context. `rounds` is written by both threads without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
long x, y;
long rounds;

static void set(long *p, long v)
{
    *p = v; // NORACE needs=context: x under A, y under B, held by the callers
}

static void *worker(void *arg)
{
    long id = (long)arg;
    rounds = id; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&A);
        set(&x, id + i);
        pthread_mutex_unlock(&A);
        pthread_mutex_lock(&B);
        set(&y, id - i);
        pthread_mutex_unlock(&B);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    puts("done");
    return 0;
}
