/* qsort with a comparison callback that touches shared data. Both workers
 * refill and sort the shared array `shared_arr` holding `m`; every qsort in
 * the program runs with `m` held, so the refill, the qsort call and the
 * callback's update of `compares` are NORACE. The callback also reads the
 * global `descending`, which main flips after starting the workers without
 * taking `m`: RACE on the callback's read and on main's write. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define ROUNDS 50

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int shared_arr[N];
long compares;
int descending;

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    compares++; // NORACE: qsort is only ever called with m held
    int d = descending; // RACE: main writes descending without m
    return d ? y - x : x - y;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&m);
        for (int i = 0; i < N; i++)
            shared_arr[i] = (int)((i * 37 + id + r) % N); // NORACE: m held
        qsort(shared_arr, N, sizeof shared_arr[0], cmp); // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    descending = 1; // RACE: the comparator reads descending
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%d %ld\n", shared_arr[0], compares); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
