/* A block whose elements a counted loop hands to workers, one each, after
 * main has handed the whole block to an auditor: the auditor owns the block
 * it was given fresh, and bumps the first element's `sum`, which worker 0
 * bumps too. The elements are no single thread's own: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct job {
    int id;
    long sum;
};

static void *auditor(void *arg)
{
    struct job *all = arg;
    all->sum += 1; // RACE: worker 0 bumps the same element
    return NULL;
}

static void *worker(void *arg)
{
    struct job *j = arg;
    j->sum += 2; // RACE: the auditor bumps element 0
    return NULL;
}

int main(void)
{
    pthread_t a, t[N];
    struct job *jobs = calloc(N, sizeof *jobs);
    if (jobs == NULL)
        return 1;
    pthread_create(&a, NULL, auditor, jobs);
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    pthread_join(a, NULL);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    printf("%ld\n", jobs[0].sum);
    free(jobs);
    return 0;
}
