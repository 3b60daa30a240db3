/* Threads started by threads that are themselves started in a loop. main
 * starts two supervisors; each supervisor starts one helper (outside any
 * loop of its own) and joins it. The two helpers, one per supervisor, run at
 * the same time and both increment `events` without a lock: RACE. `total`
 * is incremented by the helpers holding `m`: NORACE. Each supervisor writes
 * its own slot of `done` after joining its helper, but both slots are one
 * location for the analysis and no lock is held: left unannotated. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long events;
long total;

static void *helper(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        events++; // RACE: the other supervisor's helper, no lock
        pthread_mutex_lock(&m);
        total++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *supervisor(void *arg)
{
    pthread_t h;
    (void)arg;
    pthread_create(&h, NULL, helper, NULL);
    pthread_join(h, NULL);
    return NULL;
}

int main(void)
{
    pthread_t s[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&s[i], NULL, supervisor, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(s[i], NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", total); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
