/* Fresh records kept in a local array of pointers: main fills each in
 * before any thread runs: NORACE. The uniqueness analysis follows a fresh
 * pointer into an element of such an array, and must let it go wherever it
 * may leave: an element read as a value publishes what it may hold, by a
 * constant or a variable index; and once the index variable changes, the
 * element it names holds another record (one a thread reads): RACE on each. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct rec {
    int v;
};

static struct rec *shown;

static void *reader(void *arg)
{
    (void)arg;
    return (void *)(long)shown->v; // RACE: main writes the record it published
}

static void *other_reader(void *arg)
{
    struct rec *r = arg;
    return (void *)(long)r->v; // RACE: main writes this record through another name
}

int main(int argc, char **argv)
{
    (void)argv;
    struct rec *recs[4];
    pthread_t t1, t2, u;
    for (int i = 0; i < 4; i++) {
        recs[i] = malloc(sizeof *recs[i]);
        if (!recs[i])
            return 1;
        recs[i]->v = i; // NORACE: no thread runs yet
    }
    /* Published by a constant index. */
    shown = recs[0];
    pthread_create(&t1, NULL, reader, NULL);
    recs[0]->v = 10; // RACE: the reader reads it
    pthread_join(t1, NULL);
    /* Published by a variable index. */
    struct rec *x = malloc(sizeof *x);
    int k = argc - 1;
    recs[k] = x;
    shown = recs[argc - 1 + 0 * k];
    pthread_create(&t2, NULL, reader, NULL);
    x->v = 11; // RACE: the reader reads it
    pthread_join(t2, NULL);
    /* The index changes: recs[j] is another record, which a thread reads. */
    pthread_create(&u, NULL, other_reader, recs[1]);
    int j = 0;
    struct rec *y = malloc(sizeof *y);
    recs[j] = y;
    j = 1;
    struct rec *z = recs[j];
    z->v = 12; // RACE: the other reader reads it
    pthread_join(u, NULL);
    for (int i = 0; i < 4; i++)
        free(recs[i]);
    free(x);
    free(y);
    return 0;
}
