/* A join that does not cover every thread. Two workers update `total`
 * holding `m`; main joins only the first and then writes `total` without the
 * lock while the second may still be running: RACE on main's write and on
 * the workers' accesses. (The second worker starts late, so the race is
 * also observed at run time.) `count` is always accessed under `m`:
 * NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ITER 500

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
long count;

static void *worker(void *arg)
{
    usleep((useconds_t)(long)arg);
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        total += 2; // RACE: main writes total after joining only t1
        count++; // NORACE: m held everywhere
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)0L);
    pthread_create(&t2, NULL, worker, (void *)30000L);
    pthread_join(t1, NULL);
    total = 0; // RACE: t2 has not been joined
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", count); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
