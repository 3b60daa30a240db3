/* A library's mutex wrapper takes its mutex only when it has one (`mutex_enter(NULL)` does
 * nothing, as a library built without threads would): a wrapper returns holding its lock on
 * some paths only. `checkpoint` enters the journal's mutex, then the cache's; `evict` enters
 * them the other way round. The wrapper's lock is held on one of its paths only, yet it orders
 * every lock its callers take after it: a potential deadlock. */
#include <pthread.h>

struct mutex {
    pthread_mutex_t m;
};

static struct mutex journal = {PTHREAD_MUTEX_INITIALIZER};
static struct mutex cache = {PTHREAD_MUTEX_INITIALIZER};

static void mutex_enter(struct mutex *p)
{
    if (p)
        pthread_mutex_lock(&p->m); // DEADLOCK: both orders, through the wrapper
}

static void mutex_leave(struct mutex *p)
{
    if (p)
        pthread_mutex_unlock(&p->m);
}

static void *checkpoint(void *arg)
{
    (void)arg;
    mutex_enter(&journal);
    mutex_enter(&cache);
    mutex_leave(&cache);
    mutex_leave(&journal);
    return NULL;
}

static void *evict(void *arg)
{
    (void)arg;
    mutex_enter(&cache);
    mutex_enter(&journal);
    mutex_leave(&journal);
    mutex_leave(&cache);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, checkpoint, NULL);
    pthread_create(&b, NULL, evict, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
