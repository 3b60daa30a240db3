/* Waits in a loop: the number of waits before a point inside the loop
 * depends on the round, which the phases do not follow, so the barrier
 * orders nothing there. The worker writes `shared` and main reads it in the
 * same phase of every round: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 100

static pthread_barrier_t tick;
static long shared;

static void *worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        shared = r; // RACE: main reads in the same round
        pthread_barrier_wait(&tick);
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    long last = 0;
    pthread_barrier_init(&tick, NULL, 2);
    pthread_create(&t, NULL, worker, NULL);
    for (int r = 0; r < ROUNDS; r++) {
        last += shared; // RACE: the worker writes in the same round
        pthread_barrier_wait(&tick);
    }
    pthread_join(t, NULL);
    pthread_barrier_destroy(&tick);
    printf("%ld\n", last);
    return 0;
}
