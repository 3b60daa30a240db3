/* Different thread functions share globals.
 * `queue_len` is changed by the producer and the consumer, both holding `qm`:
 * NORACE. `drops` is updated by the producer holding `qm` but reset by the
 * janitor holding only `sm`: no common lock, RACE on both lines. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sm = PTHREAD_MUTEX_INITIALIZER;
int queue_len;
int drops;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&qm);
        queue_len++; // NORACE: both sides hold qm
        drops += queue_len > 100; // RACE: the janitor holds sm, not qm
        pthread_mutex_unlock(&qm);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&qm);
        if (queue_len > 0)
            queue_len--; // NORACE: both sides hold qm
        pthread_mutex_unlock(&qm);
    }
    return NULL;
}

static void *janitor(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER / 10; i++) {
        pthread_mutex_lock(&sm);
        drops = 0; // RACE: the producer holds qm, not sm
        pthread_mutex_unlock(&sm);
    }
    return NULL;
}

int main(void)
{
    pthread_t p, c, j;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&j, NULL, janitor, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_join(j, NULL);
    puts("done");
    return 0;
}
