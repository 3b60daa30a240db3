/* main starts its workers, writes their configuration, then sets `go`
 * holding the mutex the workers wait on: the configuration is ordered
 * before what each worker does after seeing `go` (NORACE). What main writes
 * after setting `go`, and what a worker reads before waiting, are not
 * (RACE). A flag set twice releases its waiters at the first set, before
 * what main writes until the second (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 3

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER, c2 = PTHREAD_COND_INITIALIZER;
static int go, go2;
static int config;
static int late_config;
static int unguarded;
static int data2;

static void *worker(void *arg)
{
    (void)arg;
    int seen = unguarded; // RACE: main writes it before setting go, after the create
    pthread_mutex_lock(&m);
    while (!go)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    int got = config; // NORACE needs=sharing: written before go
    got += late_config; // RACE: main writes it after setting go
    return (void *)(long)(got + seen);
}

static void *waiter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m2);
    while (!go2)
        pthread_cond_wait(&c2, &m2);
    pthread_mutex_unlock(&m2);
    return (void *)(long)data2; // RACE: the first set of go2 comes before data2
}

int main(void)
{
    pthread_t t[N], w;
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    pthread_create(&w, NULL, waiter, NULL);
    usleep(20000);
    config = 42; // NORACE needs=sharing: before go is set
    unguarded = 1; // RACE: the workers read it before waiting
    pthread_mutex_lock(&m);
    go = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    usleep(20000);
    late_config = 7; // RACE: after go is set
    pthread_mutex_lock(&m2);
    go2 = 1;
    pthread_cond_broadcast(&c2);
    pthread_mutex_unlock(&m2);
    usleep(20000);
    data2 = 5; // RACE: the waiter may already run
    pthread_mutex_lock(&m2);
    go2 = 1;
    pthread_cond_broadcast(&c2);
    pthread_mutex_unlock(&m2);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    pthread_join(w, NULL);
    printf("%d\n", config);
    return 0;
}
