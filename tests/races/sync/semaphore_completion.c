/* A completion semaphore: each of main's N workers posts `done` once, as
 * its last act, and main waits N times before reading what they wrote:
 * NORACE. Waiting one time fewer leaves the slow worker running (RACE), and
 * workers that post after every step can satisfy N waits before the slow one
 * has finished (RACE). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

#define N 4

static sem_t done, early, steps;
static long results[N];
static long partial[N];
static long progress[N];

static void *worker(void *arg)
{
    long id = (long)arg;
    results[id] = id * id; // NORACE needs=sharing: main reads it after N waits
    sem_post(&done);
    return NULL;
}

static void *straggler(void *arg)
{
    long id = (long)arg;
    if (id == N - 1)
        usleep(50000);
    partial[id] = id + 1; // RACE: main waits only N - 1 times
    sem_post(&early);
    return NULL;
}

static void *stepper(void *arg)
{
    long id = (long)arg;
    for (int k = 0; k < 2; k++) {
        if (id == N - 1)
            usleep(50000);
        progress[id] += k; // RACE: the other steppers' posts satisfy main's waits
        sem_post(&steps);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[N], u[N], v[N];
    long sum = 0;
    sem_init(&done, 0, 0);
    sem_init(&early, 0, 0);
    sem_init(&steps, 0, 0);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        sem_wait(&done);
    for (int i = 0; i < N; i++)
        sum += results[i]; // NORACE needs=sharing: every worker has posted
    for (long i = 0; i < N; i++)
        pthread_create(&u[i], NULL, straggler, (void *)i);
    for (int i = 0; i < N - 1; i++)
        sem_wait(&early);
    for (int i = 0; i < N; i++)
        sum += partial[i]; // RACE: the last straggler may not have posted
    for (long i = 0; i < N; i++)
        pthread_create(&v[i], NULL, stepper, (void *)i);
    for (int i = 0; i < N; i++)
        sem_wait(&steps);
    for (int i = 0; i < N; i++)
        sum += progress[i]; // RACE: N posts need not be one per stepper
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        pthread_join(u[i], NULL);
        pthread_join(v[i], NULL);
    }
    printf("%ld\n", sum);
    return 0;
}
