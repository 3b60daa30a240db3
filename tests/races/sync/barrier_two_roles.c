/* Barrier phases: a producer fills `data` before its wait and a consumer
 * reads it after its own. The barrier's count is 2 and exactly two threads
 * wait on it, so every trip needs both: the write and the read are in
 * different phases and ordered. Both threads bump `steps` in the first phase:
 * RACE. */
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t ready;
static int data[64];
static long steps;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 64; i++)
        data[i] = i * i; // NORACE: phase 0, read only in phase 1
    steps++; // RACE: both threads, phase 0
    pthread_barrier_wait(&ready);
    return NULL;
}

static void *consumer(void *arg)
{
    long sum = 0;
    steps++; // RACE: both threads, phase 0
    pthread_barrier_wait(&ready);
    for (int i = 0; i < 64; i++)
        sum += data[i]; // NORACE: phase 1, written only in phase 0
    *(long *)arg = sum;
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    long sum = 0;
    pthread_barrier_init(&ready, NULL, 2);
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, &sum);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_barrier_destroy(&ready);
    printf("%ld %ld\n", sum, steps);
    return 0;
}
