/* The convention of verification tasks that a function whose name starts
 * with __VERIFIER_atomic_ runs atomically: `hits`, updated only inside such
 * a function by both threads, is NORACE; `misses`, updated by both threads
 * in an ordinary function, is RACE. locksmith brackets each call of such a
 * function with the two calls of an atomic section, whose stubs hold one
 * mutex; the mutex below gives the running program (under ThreadSanitizer)
 * the same atomicity and is hidden from locksmith, which defines
 * __LOCKSMITH__. */
#include <pthread.h>
#include <stdio.h>

int hits;
int misses;

#ifndef __LOCKSMITH__
static pthread_mutex_t atomically = PTHREAD_MUTEX_INITIALIZER;
#endif

void __VERIFIER_atomic_hit(int n)
{
#ifndef __LOCKSMITH__
    pthread_mutex_lock(&atomically);
#endif
    hits += n; // NORACE: the function runs atomically
#ifndef __LOCKSMITH__
    pthread_mutex_unlock(&atomically);
#endif
}

static void miss(int n)
{
    misses += n; // RACE: both threads, nothing held
}

static void *worker(void *arg)
{
    for (int i = 0; i < 100; i++) {
        __VERIFIER_atomic_hit(1);
        miss(1);
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", hits, misses);
    return 0;
}
