/* Mutual recursion that drops and re-takes the lock. Workers call ping()
 * holding `m`; ping bumps `g` and calls pong, which unlocks `m`, bumps `h`,
 * re-locks `m` and calls ping again. Every entry to ping holds m, so `g` is
 * NORACE; `h` is touched between unlock and lock by both workers: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 20000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long g, h;

static void ping(int n);

static void pong(int n)
{
    pthread_mutex_unlock(&m);
    h++; // RACE: m released by pong, both workers
    pthread_mutex_lock(&m);
    ping(n - 1);
}

static void ping(int n)
{
    g++; // NORACE: m held at every entry to ping
    if (n > 0)
        pong(n);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&m);
        ping(5);
        pthread_mutex_unlock(&m);
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
    printf("%ld\n", g); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
