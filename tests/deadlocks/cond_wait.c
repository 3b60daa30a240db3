/* pthread_cond_wait gives its mutex back and waits for it again when woken: waiting for
 * `ready_lock` while holding `buffer` is an edge of the lock order like a lock call. */
#include <pthread.h>

static pthread_mutex_t buffer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int items, is_ready;

static void *consumer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&buffer);
    pthread_mutex_lock(&ready_lock); // DEADLOCK: holds buffer, waits for ready_lock
    while (!is_ready)
        pthread_cond_wait(&ready, &ready_lock); // DEADLOCK: waits for ready_lock again
    items--;
    pthread_mutex_unlock(&ready_lock);
    pthread_mutex_unlock(&buffer);
    return NULL;
}

static void *producer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&ready_lock);
    is_ready = 1;
    pthread_mutex_lock(&buffer); // DEADLOCK: holds ready_lock, waits for buffer
    items++;
    pthread_mutex_unlock(&buffer);
    pthread_cond_signal(&ready);
    pthread_mutex_unlock(&ready_lock);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, consumer, NULL);
    pthread_create(&b, NULL, producer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
