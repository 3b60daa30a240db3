/* main allocates the workers' records through its own allocator, defined
 * after main as generated C often is, and stores each record through a
 * copy of the allocator's result: each worker owns the record of its index
 * in `recs` (NORACE). The two elements of `pairs` come from one
 * allocation stored into two variables at once (`a = b = s_malloc(…)`):
 * the workers 0 and 1 share that record (RACE). */
#include <pthread.h>
#include <stdlib.h>

#define N 4

struct rec {
    int v;
};

void *s_malloc(unsigned long size);

static struct rec **recs, **pairs;

static void *worker(void *arg)
{
    long id = (long)arg;
    recs[id]->v = (int)id; // NORACE needs=existentials: only this worker was handed id
    if (id < 2)
        pairs[id]->v = (int)id; // RACE: pairs[0] and pairs[1] are one record
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    long i;
    void *block, *one, *pair_block, *a, *b;
    block = s_malloc(N * (unsigned long)sizeof(struct rec *));
    recs = (struct rec **)block;
    for (i = 0; i < N; i++) {
        one = s_malloc(sizeof(struct rec));
        recs[i] = (struct rec *)one;
    }
    pair_block = s_malloc(2 * (unsigned long)sizeof(struct rec *));
    pairs = (struct rec **)pair_block;
    a = b = s_malloc(sizeof(struct rec));
    pairs[0] = (struct rec *)a;
    pairs[1] = (struct rec *)b;
    for (i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    return 0;
}

void *s_malloc(unsigned long size)
{
    void *m = malloc(size);
    if (m == NULL)
        abort();
    return m;
}
