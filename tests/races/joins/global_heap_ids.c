/* Thread ids in a heap block held by a global pointer (`pthread_t *workers`, allocated by main
 * once the number of threads is known). `workers` is assigned once, on no cycle, its address
 * is never taken, and no code copies it or writes through it but the create: the join loop
 * over `workers[j]` joins every thread the create loop started, so main's reads after it are
 * NORACE. `helpers` is the same, except that `forget` writes its elements: a join of
 * `helpers[j]` may then join nothing, and the helpers' counts race with main's read. Before,
 * only a local pointer's block was trusted, and `done_work` was reported too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_t *workers, *helpers;
static long done_work[4], done_help[4];

static void *work(void *arg)
{
    done_work[(long)arg] = 1; // NORACE needs=joins
    return NULL;
}

static void *help(void *arg)
{
    usleep(20000);
    done_help[(long)arg] = 1; // RACE
    return NULL;
}

static void forget(int k)
{
    helpers[k] = pthread_self();
}

int main(int argc, char **argv)
{
    long n = argc > 4 ? 4 : 2 + argc, i, j, sum = 0;
    (void)argv;
    workers = calloc(n, sizeof *workers);
    helpers = calloc(n, sizeof *helpers);
    if (workers == NULL || helpers == NULL)
        return 1;
    for (i = 0; i < n; i++) {
        pthread_create(&workers[i], NULL, work, (void *)i);
        pthread_create(&helpers[i], NULL, help, (void *)i);
    }
    if (argc > 5)
        forget(0);
    for (j = 0; j < n; j++)
        pthread_join(workers[j], NULL);
    for (j = 0; j < n; j++)
        sum += done_work[j]; // NORACE needs=joins
    sum += done_help[0]; // RACE
    for (j = 0; j < n; j++)
        pthread_join(helpers[j], NULL);
    printf("%ld\n", sum);
    free(workers);
    free(helpers);
    return 0;
}
