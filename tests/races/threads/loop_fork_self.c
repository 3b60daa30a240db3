/* A thread function forked in a loop is concurrent with itself.
 * `hits` is written by every instance with no lock: RACE, although only one
 * pthread_create appears in the source. `safe` is written holding `m`:
 * NORACE. */
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITER 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long hits;
long safe;

static void *worker(void *arg)
{
    (void)arg;
    hits++; // RACE: every instance of worker, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        safe++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    for (int i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, NULL);
    for (int i = 0; i < NT; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", safe); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
