/* Slots in an array member of a global struct: each worker writes `table.per_worker[id]`, the
 * element of the value it was started with, and main reads them after the joins: NORACE, as
 * for a global array. `scratch` is a union: `words[1]` and `bytes[4]` are the same memory, so
 * worker 1's word and worker 4's byte race although each indexes by its own value. Before, an
 * array member was one location for every worker, and `per_worker` was reported. */
#include <pthread.h>
#include <stdio.h>

struct table {
    int count;
    long per_worker[8];
    union {
        int words[8];
        char bytes[32];
    } scratch;
} table;

static void *work(void *arg)
{
    long id = (long)arg;
    table.per_worker[id] = id + 1; // NORACE needs=existentials
    table.scratch.words[id] = 1; // RACE
    table.scratch.bytes[id] = 2; // RACE
    return NULL;
}

int main(void)
{
    pthread_t t[8];
    long i, sum = 0;
    for (i = 0; i < 8; i++)
        pthread_create(&t[i], NULL, work, (void *)i);
    for (i = 0; i < 8; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < 8; i++)
        sum += table.per_worker[i] + table.scratch.words[i]; // NORACE
    printf("%ld\n", sum);
    return 0;
}
