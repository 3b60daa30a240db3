/* A recursive mutex made by glibc's static initializer may be locked again by the thread that
 * holds it: the nested call through the helper is no self-deadlock. The mutex `plain`, made
 * by the default initializer, blocks forever when its holder locks it again. */
#define _GNU_SOURCE
#include <pthread.h>

static pthread_mutex_t registry = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
static int names;
static int counts;

static void add_name(void)
{
    pthread_mutex_lock(&registry); // NODEADLOCK: registry is recursive
    names++;
    pthread_mutex_unlock(&registry);
}

static void add_count(void)
{
    pthread_mutex_lock(&plain); // DEADLOCK: the caller holds plain, a normal mutex
    counts++;
    pthread_mutex_unlock(&plain);
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&registry);
    add_name();
    pthread_mutex_unlock(&registry);
    return NULL;
}

static void *counter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&plain);
    add_count();
    pthread_mutex_unlock(&plain);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, counter, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
