/* Per-thread heap buffers that are never published. Two different thread
 * functions, each forked once, malloc a buffer, fill it through the shared
 * helper fill() and sum it; the buffer pointer never leaves the thread, so
 * the buffer is not shared: NORACE on the accesses through it. The sums are
 * added to `total` under `m`: NORACE. Both threads also write `busy` without
 * a lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 512

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
int busy;

static void fill(int *buf, int n, int seed)
{
    for (int i = 0; i < n; i++)
        buf[i] = seed * i; // NORACE: only the allocating thread sees buf
}

static long sum(const int *buf, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += buf[i]; // NORACE: only the allocating thread sees buf
    return s;
}

static void *evens(void *arg)
{
    int *buf = malloc(N * sizeof *buf);
    (void)arg;
    busy = 1; // RACE: odds() writes busy too
    fill(buf, N, 2);
    long s = sum(buf, N);
    free(buf);
    pthread_mutex_lock(&m);
    total += s; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *odds(void *arg)
{
    int *buf = malloc(N * sizeof *buf);
    (void)arg;
    busy = 2; // RACE: evens() writes busy too
    fill(buf, N, 3);
    long s = sum(buf, N);
    free(buf);
    pthread_mutex_lock(&m);
    total -= s; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, evens, NULL);
    pthread_create(&b, NULL, odds, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("done\n");
    return 0;
}
