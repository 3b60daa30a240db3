/* A lock taken on one path only still orders the locks taken after it: `flush` takes `index`
 * only when asked to (`with_index`), then `pages`; `compact` takes `pages`, then `index`. When
 * `flush` runs with `with_index`, the two threads wait for each other: a potential deadlock,
 * although `index` is not held on every path to `flush`'s lock of `pages`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;
static int with_index;
static long pages, entries;

static void *flush(void *arg)
{
    (void)arg;
    if (with_index)
        pthread_mutex_lock(&index_lock);
    pthread_mutex_lock(&pages_lock); // DEADLOCK: may hold index_lock, waits for pages_lock
    pages++;
    pthread_mutex_unlock(&pages_lock);
    if (with_index)
        pthread_mutex_unlock(&index_lock);
    return NULL;
}

static void *compact(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pages_lock);
    pages--;
    pthread_mutex_lock(&index_lock); // DEADLOCK: holds pages_lock, waits for index_lock
    entries--;
    pthread_mutex_unlock(&index_lock);
    pthread_mutex_unlock(&pages_lock);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t a, b;
    (void)argv;
    with_index = argc > 0;
    pthread_create(&a, NULL, flush, NULL);
    pthread_create(&b, NULL, compact, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", pages, entries);
    return 0;
}
