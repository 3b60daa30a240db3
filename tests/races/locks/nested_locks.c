/* Nested critical sections: lock sets with one lock in common.
 * `s1` is accessed holding {outer, inner} by one thread and {outer} by the
 * other: `outer` is common to every access, NORACE. `s2` is accessed holding
 * only `inner` by one thread and only `outer` by the other: the intersection
 * of the lock sets is empty, RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 10000

pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
long s1, s2;

static void *deep(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&outer);
        pthread_mutex_lock(&inner);
        s1 += 2; // NORACE: outer (and inner) held
        pthread_mutex_unlock(&inner);
        pthread_mutex_unlock(&outer);
        pthread_mutex_lock(&inner);
        s2 += 2; // RACE: only inner held here, only outer in shallow()
        pthread_mutex_unlock(&inner);
    }
    return NULL;
}

static void *shallow(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&outer);
        s1 -= 1; // NORACE: outer held
        s2 -= 1; // RACE: only outer held here, only inner in deep()
        pthread_mutex_unlock(&outer);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, deep, NULL);
    pthread_create(&b, NULL, shallow, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
