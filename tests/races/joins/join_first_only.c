/* Threads created in a loop over th[], but only th[0] is joined before main
 * writes the shared `sum` without a lock: threads 1 and 2 may still run,
 * RACE on main's write and on the workers' accesses. (Threads other than 0
 * start late so that the race is also observed at run time.) `hits` is
 * always accessed under `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NT 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long sum;
long hits;

static void *worker(void *arg)
{
    long id = (long)arg;
    if (id > 0)
        usleep(30000);
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&m);
        sum += id; // RACE: main writes sum after joining th[0] only
        hits++; // NORACE: m held everywhere
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    for (long i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    pthread_join(th[0], NULL);
    sum = -1; // RACE: th[1] and th[2] not joined yet
    for (int i = 1; i < NT; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", hits); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
