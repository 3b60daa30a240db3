/* Workers started with the create loop's counter walk [id * chunk,
 * (id + 1) * chunk), and the last one (id == T - 1, the largest value the
 * loop hands over) also the remainder up to N: no two ranges meet, NORACE,
 * whether the end is chosen by a conditional or by a test after it, against
 * the constant bound or the global one the create loop compares with. Giving
 * the remainder to another worker makes its range run into the next one's
 * (RACE), and so does giving it to the first (RACE). */
#include <pthread.h>
#include <stdio.h>

#define N 100
#define T 3

static int nworkers = T;
static double a[N], b[N], c[N], d[N];

static void *cut(void *arg)
{
    long id = (long)arg;
    int chunk = N / T;
    int start = id * chunk;
    int end = (id == T - 1) ? N : start + chunk;
    for (int i = start; i < end; i++)
        a[i] = i; // NORACE needs=existentials: only the last worker walks past (id + 1) * chunk
    int late = (id == T - 2) ? N : start + chunk;
    for (int i = start; i < late; i++)
        c[i] = i; // RACE: the middle worker runs into the last one's range
    return NULL;
}

static void *split(void *arg)
{
    long id = (long)arg;
    int chunk = N / nworkers;
    int start = id * chunk, stop = start + chunk;
    if (id == nworkers - 1)
        stop = N;
    for (int i = start; i < stop; i++)
        b[i] = i; // NORACE needs=existentials: the remainder is the last worker's
    int first = (id == 0) ? N : start + chunk;
    for (int i = start; i < first; i++)
        d[i] = i; // RACE: the first worker runs into every other range
    return NULL;
}

int main(void)
{
    pthread_t t[T], u[T];
    for (long i = 0; i < T; i++)
        pthread_create(&t[i], NULL, cut, (void *)i);
    for (long i = 0; i < nworkers; i++)
        pthread_create(&u[i], NULL, split, (void *)i);
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < nworkers; i++)
        pthread_join(u[i], NULL);
    printf("%f %f %f %f\n", a[99], b[99], c[99], d[99]);
    return 0;
}
