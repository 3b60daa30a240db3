/* Each counter gets its own element of main's array, and main reads an
 * element back in the loop that joins its thread: after `pthread_join(t[i])`
 * the element is main's again, and the counters still running own the other
 * elements: NORACE. main reads `late[i]` before joining its counter: RACE.
 * It joins the tallies in the reverse order, so `tally[i]`'s own thread may
 * still be running when main reads it: RACE. */
#include <pthread.h>
#include <stdio.h>

#define N 4

static void *counter(void *arg)
{
    long *c = arg;
    for (int k = 0; k < 1000; k++)
        *c += 1; // NORACE needs=existentials: only this counter's element
    return NULL;
}

static void *slow(void *arg)
{
    long *c = arg;
    *c += 1; // RACE: main reads it before the join
    return NULL;
}

static void *tallier(void *arg)
{
    long *c = arg;
    *c += 2; // RACE: main reads it while its thread runs
    return NULL;
}

int main(void)
{
    pthread_t t[N], u[N], v[N];
    long counts[N], late[N], tally[N];
    long total = 0;
    for (int i = 0; i < N; i++) {
        counts[i] = 0; // NORACE needs=existentials: before its counter starts
        pthread_create(&t[i], NULL, counter, &counts[i]);
    }
    for (int i = 0; i < N; i++) {
        late[i] = 0;
        pthread_create(&u[i], NULL, slow, &late[i]);
    }
    for (int i = 0; i < N; i++) {
        tally[i] = 0;
        pthread_create(&v[i], NULL, tallier, &tally[i]);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        total += counts[i]; // NORACE needs=existentials: its counter has ended
    }
    for (int i = 0; i < N; i++) {
        total += late[i]; // RACE: its thread may still run
        pthread_join(u[i], NULL);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(v[N - 1 - i], NULL);
        total += tally[i]; // RACE: joined in reverse, its thread may still run
    }
    printf("%ld\n", total);
    return 0;
}
