/* A join loop whose bound differs from the create loop: NT threads are
 * created but only NT-1 are joined before main writes `result` without a
 * lock. The last thread may still be running: RACE on main's write and on
 * the workers' accesses (the last thread starts late so the race is also
 * observed at run time). `hits` is always accessed under `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NT 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long result;
long hits;

static void *worker(void *arg)
{
    long id = (long)arg;
    if (id == NT - 1)
        usleep(30000);
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&m);
        result += id; // RACE: main writes result with one thread unjoined
        hits++; // NORACE: m held everywhere
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    int i;
    for (i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, (void *)(long)i);
    for (i = 0; i < NT - 1; i++)
        pthread_join(th[i], NULL);
    result = 0; // RACE: th[NT-1] is not joined
    pthread_join(th[NT - 1], NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", hits); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
