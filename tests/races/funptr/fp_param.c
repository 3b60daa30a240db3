/* A function-pointer parameter: for_each(arr, n, f) calls f on every
 * element of a read-only table. With f = acc_locked the callback adds into
 * `sum` holding `m`: NORACE. With f = count_plain it increments `count`
 * without a lock, and both workers do so: RACE. */
#include <pthread.h>
#include <stdio.h>

#define N 8
#define ROUNDS 300

static const int table[N] = { 5, 3, 8, 1, 9, 2, 7, 4 };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long sum, count;

static void acc_locked(int v)
{
    pthread_mutex_lock(&m);
    sum += v; // NORACE: m held
    pthread_mutex_unlock(&m);
}

static void count_plain(int v)
{
    count += v > 4; // RACE: both workers, no lock
}

static void for_each(const int *arr, int n, void (*f)(int))
{
    for (int i = 0; i < n; i++)
        f(arr[i]);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        for_each(table, N, acc_locked);
        for_each(table, N, count_plain);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", sum); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
