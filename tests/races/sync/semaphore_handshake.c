/* A semaphore that starts at 0 and that one thread alone posts, once its
 * part is done, orders that part before whatever follows a wait on it:
 * the producer's table before main's reads (NORACE), main's settings before
 * the worker's (NORACE, main the poster). What the producer writes after
 * its post is not ordered (RACE); nor is what a waiter reads when another
 * thread posts the same semaphore too (RACE), or when the semaphore starts
 * at 1 (RACE). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static sem_t ready, go, shared_sem, open_sem;
static int table[8];
static int late;
static int settings;
static int by_first;
static int early;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++)
        table[i] = i * i; // NORACE needs=sharing: before the post main waits for
    sem_post(&ready);
    late = 1; // RACE: after the post
    return NULL;
}

static void *worker(void *arg)
{
    (void)arg;
    sem_wait(&go);
    return (void *)(long)settings; // NORACE needs=sharing: main posted after writing it
}

static void *first(void *arg)
{
    (void)arg;
    usleep(50000);
    by_first = 1; // RACE: the second poster may satisfy main's wait
    sem_post(&shared_sem);
    return NULL;
}

static void *second(void *arg)
{
    (void)arg;
    sem_post(&shared_sem);
    return NULL;
}

static void *opener(void *arg)
{
    (void)arg;
    usleep(50000);
    early = 1; // RACE: the semaphore starts at 1, main's wait need not wait
    sem_post(&open_sem);
    return NULL;
}

int main(void)
{
    pthread_t p, w, f, s, o;
    sem_init(&ready, 0, 0);
    sem_init(&go, 0, 0);
    sem_init(&shared_sem, 0, 0);
    sem_init(&open_sem, 0, 1);
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&w, NULL, worker, NULL);
    settings = 42; // NORACE needs=sharing: before main's post
    sem_post(&go);
    sem_wait(&ready);
    int sum = 0;
    for (int i = 0; i < 8; i++)
        sum += table[i]; // NORACE needs=sharing: after the producer's post
    sum += late; // RACE: the producer writes it after its post
    pthread_create(&f, NULL, first, NULL);
    pthread_create(&s, NULL, second, NULL);
    sem_wait(&shared_sem);
    sum += by_first; // RACE: the wait may have taken the second's post
    pthread_create(&o, NULL, opener, NULL);
    sem_wait(&open_sem);
    sum += early; // RACE: the initial unit satisfies the wait
    pthread_join(p, NULL);
    pthread_join(w, NULL);
    pthread_join(f, NULL);
    pthread_join(s, NULL);
    pthread_join(o, NULL);
    sem_destroy(&ready);
    sem_destroy(&go);
    sem_destroy(&shared_sem);
    sem_destroy(&open_sem);
    printf("%d\n", sum);
    return 0;
}
