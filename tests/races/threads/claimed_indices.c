/* Work shared out by claiming indices from a shared counter (dynamic scheduling): each worker
 * takes the next value of `next` under `m`, or of `next_atomic` with an atomic add, and writes
 * only the element at that index. No two claims return one value, so `out[i]` and `twice[i]`
 * are each written by one thread, and main reads them after the joins: NORACE; so is the
 * element of the block `scaled` points to, which only ever holds a block main allocated. `seen[i]` is
 * claimed the same way, but main writes `seen[0]` while the workers run: that element is a
 * worker's too, so both writes race. Before, every element access of an array counted as one
 * location, and `out` and `twice` were reported as written by two threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
static double in[N], out[N], twice[N], *scaled;
static int seen[N];
static int next, next_atomic;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *locked_claims(void *arg)
{
    (void)arg;
    for (;;) {
        int i;
        pthread_mutex_lock(&m);
        i = next++;
        pthread_mutex_unlock(&m);
        if (i >= N)
            break;
        out[i] = in[i] * 2; // NORACE needs=existentials
        scaled[i] = in[i] / 2; // NORACE needs=existentials
        seen[i] = 1; // RACE
    }
    return NULL;
}

static void *atomic_claims(void *arg)
{
    (void)arg;
    for (;;) {
        int i = __sync_fetch_and_add(&next_atomic, 1);
        if (i >= N)
            break;
        twice[i] = in[i] + in[i]; // NORACE needs=existentials
    }
    return NULL;
}

int main(void)
{
    pthread_t locked[2], atomic[2];
    double sum = 0;
    int k;
    scaled = malloc(N * sizeof *scaled);
    if (scaled == NULL)
        return 1;
    for (k = 0; k < N; k++)
        in[k] = k;
    for (k = 0; k < 2; k++) {
        pthread_create(&locked[k], NULL, locked_claims, NULL);
        pthread_create(&atomic[k], NULL, atomic_claims, NULL);
    }
    seen[0] = 2; // RACE
    for (k = 0; k < 2; k++) {
        pthread_join(locked[k], NULL);
        pthread_join(atomic[k], NULL);
    }
    for (k = 0; k < N; k++)
        sum += out[k] + twice[k] + seen[k] + scaled[k]; // NORACE
    printf("%f\n", sum);
    free(scaled);
    return 0;
}
