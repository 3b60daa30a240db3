/* Producer/consumer handoff with pthread_cond_wait under the mutex.
 * cond_wait releases and re-acquires `m`, so `ready` and `data` are only
 * touched with m held: NORACE (also `consumed`). `handoffs` is incremented by
 * both threads after they unlock m: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;
long data;
long consumed;
long handoffs;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        while (ready) // NORACE: m held (re-acquired by cond_wait)
            pthread_cond_wait(&cv, &m);
        data = i; // NORACE: m held
        ready = 1; // NORACE: m held
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&m);
        handoffs++; // RACE: after unlock, consumer does the same
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        while (!ready) // NORACE: m held (re-acquired by cond_wait)
            pthread_cond_wait(&cv, &m);
        consumed += data; // NORACE: m held
        ready = 0; // NORACE: m held
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&m);
        handoffs++; // RACE: after unlock, producer does the same
    }
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", consumed); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
