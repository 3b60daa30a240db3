/* The same two orders as loop_instances.c, but the thread runs once: one thread never waits
 * for itself, whatever order its branches take the locks in. */
#include <pthread.h>

static pthread_mutex_t in = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;
static int pending;

static void *pump(void *arg)
{
    if (arg) {
        pthread_mutex_lock(&in);
        pthread_mutex_lock(&out); // NODEADLOCK: the only thread taking both
        pending--;
        pthread_mutex_unlock(&out);
        pthread_mutex_unlock(&in);
    } else {
        pthread_mutex_lock(&out);
        pthread_mutex_lock(&in); // NODEADLOCK: the only thread taking both
        pending++;
        pthread_mutex_unlock(&in);
        pthread_mutex_unlock(&out);
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, pump, NULL);
    pthread_join(t, NULL);
    return 0;
}
