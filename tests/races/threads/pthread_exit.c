/* Threads that end with pthread_exit, one of them early. Every worker
 * increments `done` holding `m`: NORACE. Worker 0 then leaves through
 * pthread_exit; workers 1 and 2 go on to write `tail` without a lock: RACE
 * (two threads reach that line). The others end with pthread_exit too. */
#include <pthread.h>
#include <stdio.h>

#define NT 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long done;
long tail;

static void *worker(void *arg)
{
    long id = (long)arg;
    if (id == 0) {
        pthread_mutex_lock(&m);
        done++; // NORACE: m held
        pthread_mutex_unlock(&m);
        pthread_exit(NULL);
    }
    tail += id; // RACE: workers 1 and 2, no lock
    pthread_mutex_lock(&m);
    done++; // NORACE: m held
    pthread_mutex_unlock(&m);
    pthread_exit((void *)id);
}

int main(void)
{
    pthread_t th[NT];
    for (long i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    for (int i = 0; i < NT; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", done); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
