/* Every thread takes the locks in one order, outer before inner, directly or through helpers:
 * the lock order has no cycle. */
#include <pthread.h>

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t middle = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static long total_outer, total_middle, total_inner;

static void add_inner(long v)
{
    pthread_mutex_lock(&inner); // NODEADLOCK: always the last taken
    total_inner += v;
    pthread_mutex_unlock(&inner);
}

static void add_middle(long v)
{
    pthread_mutex_lock(&middle); // NODEADLOCK
    total_middle += v;
    add_inner(v);
    pthread_mutex_unlock(&middle);
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&outer);
        total_outer++;
        add_middle(i);
        pthread_mutex_unlock(&outer);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&middle); // NODEADLOCK
        total_middle--;
        add_inner(-1);
        pthread_mutex_unlock(&middle);
        add_middle(-1);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    for (int i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, producer, NULL);
        pthread_create(&t[i + 2], NULL, consumer, NULL);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    return 0;
}
