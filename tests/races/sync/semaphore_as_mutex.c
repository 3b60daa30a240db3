/* A semaphore initialised to 1, posted only by the thread that waited on it,
 * excludes its critical sections as a mutex does: `balance` is NORACE. One
 * initialised to 2 lets two threads in at once: `slots_used` is RACE. A
 * semaphore used to signal between threads (posted by one, waited on by the
 * other) orders their accesses, which locksmith does not follow: `item` is
 * reported though the hand-off makes it race-free. */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>

#define ROUNDS 2000

sem_t guard, pair, filled, drained;
long balance, slots_used;
int item;

static void *teller(void *arg)
{
    for (int i = 0; i < ROUNDS; i++) {
        sem_wait(&guard);
        balance += i; // NORACE: guard is a binary semaphore used as a mutex
        sem_post(&guard);
        sem_wait(&pair);
        slots_used++; // RACE: two threads may hold the counting semaphore
        sched_yield();
        sem_post(&pair);
    }
    return arg;
}

static void *producer(void *arg)
{
    for (int i = 0; i < 100; i++) {
        sem_wait(&drained);
        item = i; // FALSE-ALARM: the consumer reads it only after sem_post(&filled)
        sem_post(&filled);
    }
    return arg;
}

static void *consumer(void *arg)
{
    long sum = 0;
    (void)arg;
    for (int i = 0; i < 100; i++) {
        sem_wait(&filled);
        sum += item; // FALSE-ALARM: handed over by the semaphores
        sem_post(&drained);
    }
    return (void *)sum;
}

int main(void)
{
    pthread_t a, b, p, c;
    sem_init(&guard, 0, 1);
    sem_init(&pair, 0, 2);
    sem_init(&filled, 0, 0);
    sem_init(&drained, 0, 1);
    pthread_create(&a, NULL, teller, NULL);
    pthread_create(&b, NULL, teller, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("%ld %ld\n", balance, slots_used);
    return 0;
}
