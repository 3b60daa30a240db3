/* A thread and main both write after the fork.
 * `status` is written by the worker and by main after pthread_create with no
 * lock: RACE on both writes. `progress` is written by both, always holding
 * `pm`: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

static pthread_mutex_t pm = PTHREAD_MUTEX_INITIALIZER;
int status;
int progress;

static void *worker(void *arg)
{
    (void)arg;
    status = 1; // RACE: main writes status too
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&pm);
        progress += 2; // NORACE: under pm
        pthread_mutex_unlock(&pm);
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    status = 2; // RACE: the worker writes status too
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&pm);
        progress -= 1; // NORACE: under pm
        pthread_mutex_unlock(&pm);
    }
    pthread_join(t, NULL);
    pthread_mutex_lock(&pm);
    printf("%d\n", progress); // NORACE: under pm
    pthread_mutex_unlock(&pm);
    return 0;
}
