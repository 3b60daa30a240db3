/* A detached thread reports back through a mutex and condition variable.
 * `result` and `finished` are written by the thread and read by main, all
 * holding `m`: NORACE. `progress` is written by the thread before it takes
 * the lock and read by main before it takes the lock: RACE. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int finished;
long result;
int progress;

static void *job(void *arg)
{
    long s = 0;
    (void)arg;
    progress = 50; // RACE: main reads progress without m
    for (int i = 0; i < 1000; i++)
        s += i;
    pthread_mutex_lock(&m);
    result = s; // NORACE: m held
    finished = 1; // NORACE: m held
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&t, &attr, job, NULL);
    pthread_attr_destroy(&attr);
    int p = progress; // RACE: the job writes progress
    pthread_mutex_lock(&m);
    while (!finished) // NORACE: m held
        pthread_cond_wait(&cv, &m);
    printf("%d %ld\n", p, result); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
