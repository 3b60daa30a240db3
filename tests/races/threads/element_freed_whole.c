/* Each worker gets its own element of a block main allocated, and the first
 * worker frees the block through its argument, which ends every element
 * while the other workers still use theirs and main still fills in the
 * later ones: RACE. The element is the worker's own, but `free` acts on the
 * whole block, past the element. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 4

struct job {
    int id;
    long sum;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    if (j->id == 0) { // RACE: the first worker may free this element meanwhile
        usleep(1000);
        free(j); // RACE: it ends the other workers' elements too
    } else {
        j->sum += 1; // RACE: the first worker may free it meanwhile
    }
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    struct job *jobs = calloc(N, sizeof *jobs);
    if (jobs == NULL)
        return 1;
    for (int i = 0; i < N; i++) {
        jobs[i].id = i; // RACE: the first worker may have freed the block already
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    printf("done\n");
    return 0;
}
