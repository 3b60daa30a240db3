/* The two orders exist, but the first thread is joined before the second one starts: they
 * never run at the same time, so they never wait for each other. */
#include <pthread.h>

static pthread_mutex_t config = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cache = PTHREAD_MUTEX_INITIALIZER;
static int generation, cached;

static void *load(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&config);
    pthread_mutex_lock(&cache); // NODEADLOCK: load is over before flush starts
    cached = generation;
    pthread_mutex_unlock(&cache);
    pthread_mutex_unlock(&config);
    return NULL;
}

static void *flush(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&cache);
    pthread_mutex_lock(&config); // NODEADLOCK: load was joined before flush started
    generation++;
    pthread_mutex_unlock(&config);
    pthread_mutex_unlock(&cache);
    return NULL;
}

int main(void)
{
    pthread_t loader, flusher;
    pthread_create(&loader, NULL, load, NULL);
    pthread_join(loader, NULL);
    pthread_create(&flusher, NULL, flush, NULL);
    pthread_join(flusher, NULL);
    return 0;
}
