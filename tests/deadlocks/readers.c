/* Both threads hold the rwlock for reading only: a reader never waits for another reader, so
 * taking it and the mutex in opposite orders does not deadlock. A writer would. */
#include <pthread.h>

static pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t hits_lock = PTHREAD_MUTEX_INITIALIZER;
static int hits;

static void *lookup(void *arg)
{
    (void)arg;
    pthread_rwlock_rdlock(&table);
    pthread_mutex_lock(&hits_lock); // NODEADLOCK: the other thread holds table for reading
    hits++;
    pthread_mutex_unlock(&hits_lock);
    pthread_rwlock_unlock(&table);
    return NULL;
}

static void *report(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&hits_lock);
    pthread_rwlock_rdlock(&table); // NODEADLOCK: a reader does not wait for readers
    hits = 0;
    pthread_rwlock_unlock(&table);
    pthread_mutex_unlock(&hits_lock);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, lookup, NULL);
    pthread_create(&b, NULL, report, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
