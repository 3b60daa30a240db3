/* Workers started by a helper that creates a thread into each element of the array it is
 * given, and joined by a helper that joins each element of the array it is given, both for
 * the count they are passed: after `join_all(ids, N)` every worker has ended, so `main`'s reads
 * of their results are ordered after the workers' writes (NORACE; they were reported while
 * only create and join loops in one function were matched). A second round, started by its
 * own helper, is joined with a count one short: its last worker, which detaches itself, may
 * still run when `main` reads what it writes (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 4

static long results[N];
static long late[N];

static void *worker(void *arg)
{
    long id = (long)arg;
    results[id] = id * 2; // NORACE needs=joins: joined by join_all before main reads
    return NULL;
}

static void *late_worker(void *arg)
{
    long id = (long)arg;
    if (id == N - 1) {
        pthread_detach(pthread_self());
        usleep(20000);
    }
    late[id] = id; // RACE: the last one is not joined
    return NULL;
}

static void start_all(pthread_t *t, int n)
{
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, (void *)(long)i);
}

static void start_late(pthread_t *t, int n)
{
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, late_worker, (void *)(long)i);
}

static void join_all(pthread_t *t, int n)
{
    for (int j = 0; j < n; j++)
        pthread_join(t[j], NULL);
}

int main(void)
{
    pthread_t ids[N], more[N];
    long sum = 0;
    start_all(ids, N);
    join_all(ids, N);
    for (int i = 0; i < N; i++)
        sum += results[i]; // NORACE needs=joins: after join_all
    start_late(more, N);
    join_all(more, N - 1);
    sum += late[N - 1]; // RACE: the last late worker may still run
    usleep(50000);
    printf("%ld\n", sum);
    return 0;
}
