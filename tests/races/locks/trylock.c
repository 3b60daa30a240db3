/* pthread_mutex_trylock: the data is touched only in the success branch,
 * written both as `== 0` and as `!pthread_mutex_trylock(...)`. `hits` and
 * `fails` are always accessed holding `m`: NORACE. The failure branch only
 * counts into a local. `attempts` is written by both workers before they
 * touch any lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long hits;
long fails;
int attempts;

static void *worker(void *arg)
{
    long miss = 0;
    (void)arg;
    attempts = attempts + 1; // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        if (pthread_mutex_trylock(&m) == 0) {
            hits++; // NORACE: trylock succeeded, m held
            pthread_mutex_unlock(&m);
        } else {
            miss++;
        }
        if (!pthread_mutex_trylock(&m)) {
            hits += 2; // NORACE: trylock succeeded, m held
            pthread_mutex_unlock(&m);
        }
    }
    pthread_mutex_lock(&m);
    fails += miss; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld %ld\n", hits, fails); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
