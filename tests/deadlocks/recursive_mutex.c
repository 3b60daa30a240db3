/* A recursive mutex (initialised with an attribute object) may be locked again by the thread
 * that holds it: the nested call through the helper is no self-deadlock. */
#define _GNU_SOURCE
#include <pthread.h>

static pthread_mutex_t registry;
static int names;

static void add_name(void)
{
    pthread_mutex_lock(&registry); // NODEADLOCK: registry is recursive
    names++;
    pthread_mutex_unlock(&registry);
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&registry);
    add_name();
    add_name();
    pthread_mutex_unlock(&registry);
    return NULL;
}

int main(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&registry, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
