/* One thread takes the locks in the other order, but with a try-lock that backs off: when the
 * second lock is busy it releases the first and starts again, so it never waits while holding. */
#include <pthread.h>
#include <sched.h>

static pthread_mutex_t queue = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pool = PTHREAD_MUTEX_INITIALIZER;
static int queued, free_slots = 8;

static void *enqueue(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&queue);
    pthread_mutex_lock(&pool); // NODEADLOCK: the other thread never waits holding pool
    free_slots--;
    queued++;
    pthread_mutex_unlock(&pool);
    pthread_mutex_unlock(&queue);
    return NULL;
}

static void *reclaim(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&pool); // NODEADLOCK: holds nothing here
        if (pthread_mutex_trylock(&queue) == 0) { // NODEADLOCK: a try-lock never waits
            queued--;
            free_slots++;
            pthread_mutex_unlock(&queue);
            pthread_mutex_unlock(&pool);
            return NULL;
        }
        pthread_mutex_unlock(&pool);
        sched_yield();
    }
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, enqueue, NULL);
    pthread_create(&b, NULL, reclaim, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
