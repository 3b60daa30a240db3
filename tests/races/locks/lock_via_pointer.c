/* Locks reached through pointer variables.
 * `lk` is a global pointer set by main before the first fork to the single
 * mutex `real` and never changed: locking *lk always locks `real`, so `n`
 * is NORACE. Each worker instead picks its own mutex through a local
 * pointer `pick` (&ma for one thread, &mb for the other) and writes `v`
 * holding it: the two threads hold different mutexes, RACE. The analysis
 * sees one lock label for both mutexes (they flow into the same pointer),
 * which is not linear, so it must not count `pick` as held. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

pthread_mutex_t real = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t mb = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t *lk;
long n, v;

static void *worker(void *arg)
{
    long id = (long)arg;
    pthread_mutex_t *pick = id ? &ma : &mb;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(lk);
        n++; // NORACE: lk always points to real
        pthread_mutex_unlock(lk);
        pthread_mutex_lock(pick);
        v += id; // RACE needs=linearity: ma in one thread, mb in the other
        pthread_mutex_unlock(pick);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    lk = &real;
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&real);
    printf("%ld\n", n); // NORACE: real held
    pthread_mutex_unlock(&real);
    return 0;
}
