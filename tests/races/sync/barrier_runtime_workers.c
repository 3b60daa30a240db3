/* The consumers are started in a loop whose bound is known only at run time,
 * so locksmith cannot tell that no more threads than the barrier's count (2)
 * wait on it, and orders nothing by it: the hand-over of `slot` from the
 * producer's phase 0 to the consumer's phase 1 is reported, although with
 * the default of one consumer it is race-free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t turn;
static long slot;

static void *producer(void *arg)
{
    (void)arg;
    slot = 42; // FALSE-ALARM: phase 0; the consumers read in phase 1
    pthread_barrier_wait(&turn);
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&turn);
    return (void *)slot; // FALSE-ALARM: phase 1
}

int main(int argc, char **argv)
{
    int consumers = argc > 1 ? atoi(argv[1]) : 1;
    pthread_t p, c[8];
    long sum = 0;
    if (consumers < 1 || consumers > 8)
        return 1;
    pthread_barrier_init(&turn, NULL, 2);
    pthread_create(&p, NULL, producer, NULL);
    for (int i = 0; i < consumers; i++)
        pthread_create(&c[i], NULL, consumer, NULL);
    pthread_join(p, NULL);
    for (int i = 0; i < consumers; i++) {
        void *got;
        pthread_join(c[i], &got);
        sum += (long)got;
    }
    pthread_barrier_destroy(&turn);
    printf("%ld\n", sum);
    return 0;
}
