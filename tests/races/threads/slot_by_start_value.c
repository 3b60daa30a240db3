/* Threads started with the value of the create loop's counter, each writing
 * the slot of `squares` its value names: no two of them share a value, so
 * no two write one slot: NORACE. Each also writes the next slot of `sums`,
 * which the next thread writes as its own: RACE. The doublers are started
 * by two loops with the same values, so two of them write each slot of
 * `doubles`: RACE. main writes `marks[0]` while the first squarer writes it
 * as its own: RACE. */
#include <pthread.h>
#include <stdio.h>

#define N 4

static long squares[N], sums[N + 1], doubles[N], marks[N];

static void *squarer(void *arg)
{
    long id = (long)arg;
    squares[id] = id * id; // NORACE needs=existentials: only this thread has this value
    sums[id + 1] += id; // RACE: the next thread writes this slot as its own
    sums[id] += 1; // RACE: the previous thread writes this slot as its next
    marks[id] = 1; // RACE: main writes marks[0]
    return NULL;
}

static void *doubler(void *arg)
{
    long id = (long)arg;
    doubles[id] = 2 * id; // RACE: the other loop's doubler with this value writes it
    return NULL;
}

int main(void)
{
    pthread_t t[N], u[2][N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, squarer, (void *)i);
    for (long i = 0; i < N; i++)
        pthread_create(&u[0][i], NULL, doubler, (void *)i);
    for (long i = 0; i < N; i++)
        pthread_create(&u[1][i], NULL, doubler, (void *)i);
    marks[0] = -1; // RACE: the first squarer writes it
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        pthread_join(u[0][i], NULL);
        pthread_join(u[1][i], NULL);
    }
    printf("%ld %ld %ld %ld\n", squares[1], sums[1], doubles[1], marks[0]);
    return 0;
}
