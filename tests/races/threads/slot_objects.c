/* Workers started with the create loop's counter `id` write the object the
 * element `recs[id]` of main's block points to. Every element of `recs` was
 * given a fresh object of its own, so no two workers write one: NORACE.
 * main stores one object in two elements of `pairs` (RACE), copies an
 * element of `kept` into another through a second name for the block (RACE),
 * and stores one object it allocated once in every element of `twice` (RACE):
 * two workers then write one object. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct rec {
    long val;
    int done;
};

static struct rec **recs, **pairs, **kept, **twice;

static void *worker(void *arg)
{
    long id = (long)arg;
    recs[id]->val = 10 * id; // NORACE needs=existentials: only this worker's object
    recs[id]->done = 1; // NORACE needs=existentials: only this worker's object
    pairs[id]->val += id; // RACE: workers 0 and 1 share one object
    kept[id]->done++; // RACE: workers 2 and 3 share one object
    twice[id]->val--; // RACE: every worker has the same object
    return NULL;
}

static struct rec **block(void)
{
    struct rec **b = calloc(N, sizeof *b);
    if (!b)
        exit(1);
    return b;
}

int main(void)
{
    pthread_t t[N];
    recs = block();
    pairs = block();
    kept = block();
    twice = block();
    void *one;
    one = calloc(1, sizeof **twice);
    for (int i = 0; i < N; i++) {
        recs[i] = calloc(1, sizeof **recs);
        pairs[i] = calloc(1, sizeof **pairs);
        kept[i] = calloc(1, sizeof **kept);
        twice[i] = one;
    }
    free(pairs[1]);
    pairs[1] = pairs[0];
    struct rec **alias = kept;
    free(alias[3]);
    alias[3] = alias[2];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %d %ld\n", recs[1]->val, pairs[0]->val, kept[2]->done, twice[0]->val);
    return 0;
}
