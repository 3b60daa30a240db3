/* Elements of a local array handed to threads where one element can reach
 * two threads at once, so the elements are not the threads' own. Each
 * element of `cells` goes to a reader and then to a writer (two create
 * loops): the writer of cell i writes what the reader of cell i reads:
 * RACE. The create loop over `rows` runs twice without joining its
 * threads, so each row is handed to two bumpers: RACE. spawn() hands out the
 * elements of the global `tags` and runs twice, so its second run writes
 * the tag the first run's taggers read: RACE. */
#include <pthread.h>
#include <stdio.h>

#define N 3

static void *reader(void *arg)
{
    return (void *)(long)*(int *)arg; // RACE: the writer of this cell writes it
}

static void *writer(void *arg)
{
    *(int *)arg = 7; // RACE: the reader of this cell reads it
    return NULL;
}

static void *bumper(void *arg)
{
    long *row = arg;
    *row += 1; // RACE: the other round's bumper of this row bumps it too
    return NULL;
}

static int tags[N];

static void *tagger(void *arg)
{
    return (void *)(long)*(int *)arg; // RACE: spawn's next run writes it
}

static void spawn(pthread_t *t)
{
    for (int i = 0; i < N; i++) {
        tags[i] = i; // RACE: a tagger of spawn's previous run reads it
        pthread_create(&t[i], NULL, tagger, &tags[i]);
    }
}

int main(void)
{
    pthread_t r[N], w[N], b[2][N], g[2][N];
    int cells[N];
    long rows[N];
    for (int i = 0; i < N; i++) {
        cells[i] = i;
        rows[i] = 0;
    }
    for (int i = 0; i < N; i++)
        pthread_create(&r[i], NULL, reader, &cells[i]);
    for (int i = 0; i < N; i++)
        pthread_create(&w[i], NULL, writer, &cells[i]);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            pthread_create(&b[round][i], NULL, bumper, &rows[i]);
    spawn(g[0]);
    spawn(g[1]);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            pthread_join(g[round][i], NULL);
    for (int i = 0; i < N; i++)
        pthread_join(r[i], NULL);
    for (int i = 0; i < N; i++)
        pthread_join(w[i], NULL);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            pthread_join(b[round][i], NULL);
    printf("%d\n", cells[0]);
    return 0;
}
