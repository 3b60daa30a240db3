/* A helper takes the log's lock only when asked to, and releases it under the same test of a
 * variable nothing assigns in between: every run of it returns holding nothing. `writer` calls
 * it, then takes the index; `indexer` takes the index, then the log. The lock order has no
 * cycle: the path that skips the first test skips the second. Without telling the two sides
 * apart, the helper held the log on the path that skipped both, and `writer` took the index
 * holding it. */
#include <pthread.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static long logged, indexed;

static void append(long v, int options)
{
    int locked = options & 1;

    if (locked)
        pthread_mutex_lock(&log_lock);
    logged += v;
    if (locked)
        pthread_mutex_unlock(&log_lock);
}

static void *writer(void *arg)
{
    (void)arg;
    append(1, 1);
    pthread_mutex_lock(&index_lock); // NODEADLOCK: append returned holding nothing
    indexed++;
    pthread_mutex_unlock(&index_lock);
    return NULL;
}

static void *indexer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&index_lock);
    indexed--;
    pthread_mutex_lock(&log_lock); // NODEADLOCK: no one waits for the index holding the log
    pthread_mutex_unlock(&log_lock);
    pthread_mutex_unlock(&index_lock);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, writer, NULL);
    pthread_create(&b, NULL, indexer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
