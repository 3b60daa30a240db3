/* Two different threads, each created once, both joined before main reads
 * and writes their shared data without a lock. `acc` is written by both
 * workers holding `m` and by main only after both joins: NORACE needs=joins.
 * `peak` is written by both workers with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long acc;
long peak;

static void *adder(void *arg)
{
    (void)arg;
    peak = 1; // RACE: subtracter writes peak too
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        acc += 3; // NORACE needs=joins: m held; main only after both joins
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *subtracter(void *arg)
{
    (void)arg;
    peak = 2; // RACE: adder writes peak too
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        acc -= 1; // NORACE needs=joins: m held; main only after both joins
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, s;
    pthread_create(&a, NULL, adder, NULL);
    pthread_create(&s, NULL, subtracter, NULL);
    pthread_join(a, NULL);
    pthread_join(s, NULL);
    acc = acc * 10; // NORACE needs=joins: both writers joined
    printf("%ld\n", acc); // NORACE needs=joins: both writers joined
    return 0;
}
