/* Workers started with the create loop's counter index blocks kept in
 * global pointers. `sums` only ever holds blocks main allocated, so each
 * worker touches its own element: NORACE (also through a helper handed the
 * value). `ahead` points one element into `base`'s block, so a worker's
 * `ahead[id]` is the next worker's `base[id + 1]`: RACE. `spare` is set to
 * the address of a static array by one worker while the others read it to
 * index it: RACE on the pointer (its elements, in two blocks, are then not
 * known to be apart, and are reported too). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

static long *sums, *base, *ahead, *spare;
static long fixed[N];

static void add(long id, long v) { sums[id] += v; } // NORACE needs=existentials: only this worker's value reaches it

static void *worker(void *arg)
{
    long id = (long)arg;
    sums[id] = id; // NORACE needs=existentials: no other worker has this value
    add(id, 1);
    base[id] = 1; // RACE: the previous worker writes this element through ahead
    ahead[id] = 2; // RACE: the next worker writes this element through base
    if (id == 1)
        spare = fixed; // RACE: the others read the pointer
    spare[id] = id; // RACE: the pointer is read here while worker 1 writes it
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    sums = calloc(N, sizeof *sums);
    sums = realloc(sums, 2 * N * sizeof *sums);
    base = calloc(N + 1, sizeof *base);
    ahead = base + 1;
    spare = malloc(N * sizeof *spare);
    long *first = spare;
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %ld\n", sums[1], base[1], spare[1]);
    free(sums);
    free(base);
    free(first);
    return 0;
}
