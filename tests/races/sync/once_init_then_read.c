/* pthread_once: the init routine runs exactly once, and every pthread_once
 * call on the same control returns only after it has run. `table` and
 * `table_size`, written by the init routine and only read after
 * pthread_once by every worker, are NORACE. `lookups` is updated by the
 * workers after their pthread_once calls, which order nothing between them:
 * RACE. `early`, read by the prober before it calls pthread_once while the
 * init routine may be writing it in another thread, is RACE. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define SIZE 64
#define ROUNDS 1000

static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int table[SIZE];
static int table_size;
static long lookups;
static int early;

static void build_table(void)
{
    for (int k = 0; k < 2000; k++) {
        for (int i = 0; i < SIZE; i++)
            table[i] = i * i; // NORACE: before every pthread_once returns
        early = k; // RACE: the prober reads it without waiting for the init
    }
    table_size = SIZE; // NORACE: before every pthread_once returns
}

static const int *get_table(void)
{
    pthread_once(&table_once, build_table);
    return table;
}

static void *worker(void *arg)
{
    long sum = 0;
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        const int *t = get_table();
        sum += t[i % table_size]; // NORACE: read after pthread_once
        lookups++; // RACE: both workers, no lock
    }
    return (void *)sum;
}

static void *prober(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < 100 * ROUNDS; i++) {
        seen += early; // RACE: read before this thread's pthread_once
        if (i % 64 == 0)
            sched_yield();
    }
    pthread_once(&table_once, build_table);
    return (void *)(seen + table[1]); // NORACE: read after pthread_once
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&c, NULL, prober, NULL);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    printf("%ld\n", lookups);
    return 0;
}
