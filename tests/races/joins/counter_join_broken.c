/* Counter joins that do not order everything, each with a counter of its
 * own. A worker that writes after counting itself down still runs when main
 * sees zero (`late`); a worker started once more outside the counted loop is
 * never counted (`extra_done`); a count main itself takes down once lets the
 * wait end while a worker runs (`cut_done`). Each of main's reads after its
 * wait races with that worker's write: RACE (the workers write these under a
 * lock among themselves). The workers are detached. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 3

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t data = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int left_late, left_extra, left_cut;
static long late, extra_done, cut_done;

static void *lateworker(void *arg)
{
    pthread_mutex_lock(&m);
    left_late--;
    pthread_mutex_unlock(&m);
    pthread_cond_broadcast(&cv);
    pthread_mutex_lock(&data);
    late = (long)arg; // RACE: written after the count-down main waits for
    pthread_mutex_unlock(&data);
    return NULL;
}

static void *extraworker(void *arg)
{
    pthread_mutex_lock(&data);
    extra_done = (long)arg; // RACE: the worker started outside the loop is never counted
    pthread_mutex_unlock(&data);
    if ((long)arg == N)
        usleep(200000);
    pthread_mutex_lock(&m);
    left_extra--;
    pthread_mutex_unlock(&m);
    pthread_cond_broadcast(&cv);
    return NULL;
}

static void *cutworker(void *arg)
{
    if ((long)arg == 0)
        usleep(200000);
    pthread_mutex_lock(&m);
    cut_done = (long)arg; // RACE: main counts one worker down itself
    left_cut--;
    pthread_mutex_unlock(&m);
    pthread_cond_broadcast(&cv);
    return NULL;
}

int main(void)
{
    pthread_t t;
    left_late = N;
    for (long i = 0; i < N; i++) {
        pthread_create(&t, NULL, lateworker, (void *)i);
        pthread_detach(t);
    }
    pthread_mutex_lock(&m);
    while (left_late > 0)
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    usleep(100000);
    printf("%ld\n", late); // RACE: the last worker may still write it

    left_extra = N;
    for (long i = 0; i < N; i++) {
        pthread_create(&t, NULL, extraworker, (void *)i);
        pthread_detach(t);
    }
    pthread_create(&t, NULL, extraworker, (void *)(long)N);
    pthread_detach(t);
    pthread_mutex_lock(&m);
    while (left_extra > 0)
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    printf("%ld\n", extra_done); // RACE: the fourth worker still runs

    left_cut = N;
    for (long i = 0; i < N; i++) {
        pthread_create(&t, NULL, cutworker, (void *)i);
        pthread_detach(t);
    }
    pthread_mutex_lock(&m);
    left_cut--;
    while (left_cut > 0)
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    printf("%ld\n", cut_done); // RACE: one worker is still sleeping
    sleep(1);
    return 0;
}
