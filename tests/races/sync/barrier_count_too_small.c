/* A barrier of count 2 that four threads wait on trips for any two of them,
 * so a waiter may leave while another has not yet arrived: phases order
 * nothing. The consumer can read `value` while the producer, paired with
 * nobody yet, still writes it. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_barrier_t pairs;
static int value;

static void *producer(void *arg)
{
    (void)arg;
    usleep(2000);
    value = 7; // RACE: the consumer's trip may not include this thread
    pthread_barrier_wait(&pairs);
    return NULL;
}

static void *consumer(void *arg)
{
    pthread_barrier_wait(&pairs);
    *(int *)arg = value; // RACE: read after a trip of two other threads
    return NULL;
}

static void *helper(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&pairs);
    return NULL;
}

int main(void)
{
    pthread_t p, c, h1, h2;
    int got = 0;
    pthread_barrier_init(&pairs, NULL, 2);
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, &got);
    pthread_create(&h1, NULL, helper, NULL);
    pthread_create(&h2, NULL, helper, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_join(h1, NULL);
    pthread_join(h2, NULL);
    pthread_barrier_destroy(&pairs);
    printf("%d\n", got);
    return 0;
}
