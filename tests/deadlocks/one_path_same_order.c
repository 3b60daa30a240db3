/* Locks taken on some paths only, always in one order: `flush` may take `index` and then takes
 * `pages`; `compact` takes `index` and then may take `pages`. Every thread that holds both took
 * `index` first, so no cycle: no deadlock. The condition `with_pages` is tested twice in
 * `compact` (taken, then released), and `pages` is never requested while it may be held by
 * the same thread: no self-deadlock either. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;
static int with_index, with_pages;
static long pages, entries;

static void *flush(void *arg)
{
    (void)arg;
    if (with_index)
        pthread_mutex_lock(&index_lock); // NODEADLOCK: index first, as everywhere
    pthread_mutex_lock(&pages_lock); // NODEADLOCK: pages after index, as everywhere
    pages++;
    pthread_mutex_unlock(&pages_lock);
    if (with_index)
        pthread_mutex_unlock(&index_lock);
    return NULL;
}

static void *compact(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&index_lock); // NODEADLOCK: index first
    entries--;
    if (with_pages) {
        pthread_mutex_lock(&pages_lock); // NODEADLOCK: pages after index
        pages--;
    }
    if (with_pages)
        pthread_mutex_unlock(&pages_lock);
    pthread_mutex_unlock(&index_lock);
    pthread_mutex_lock(&pages_lock); // NODEADLOCK: released above on the path that took it
    pages++;
    pthread_mutex_unlock(&pages_lock);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t a, b;
    (void)argv;
    with_index = argc > 0;
    with_pages = argc > 1;
    pthread_create(&a, NULL, flush, NULL);
    pthread_create(&b, NULL, compact, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", pages, entries);
    return 0;
}
