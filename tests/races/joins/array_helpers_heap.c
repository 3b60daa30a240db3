/* Workers started by a helper into each element of a block from `malloc`, and joined by a
 * helper that joins each element of the block it is given: the block's pointer is assigned
 * once, tested, handed to the two helpers with the same count and freed, and named nowhere
 * else, so no other pointer reaches the thread ids. After `join_all(ids, n)` every worker has
 * ended: `main`'s reads of their results are ordered after the workers' writes (NORACE; they
 * were reported while only create and join loops in one function were matched). What `main`
 * writes between the two helpers races with the workers (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX 8

static long results[MAX];

static void *worker(void *arg)
{
    long id = (long)arg;
    usleep(10000);
    results[id] += id * 2; // RACE: main writes results[0] while the workers run
    return NULL;
}

static void start_all(pthread_t *t, int n)
{
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, (void *)(long)i);
}

static void join_all(pthread_t *t, int n)
{
    for (int j = 0; j < n; j++)
        pthread_join(t[j], NULL);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    if (n < 1 || n > MAX)
        return 1;
    pthread_t *ids = malloc(n * sizeof *ids);
    if (ids == NULL)
        return 1;
    start_all(ids, n);
    results[0] = -1; // RACE: worker 0 may write it at the same time
    join_all(ids, n);
    free(ids);
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += results[i]; // NORACE needs=joins: after join_all
    printf("%ld\n", sum);
    return 0;
}
