/* Three threads, three locks: each holds one and waits for the next, around a cycle
 * a -> b -> c -> a. No two of them alone deadlock. */
#include <pthread.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t c = PTHREAD_MUTEX_INITIALIZER;
static int x, y, z;

static void *first(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b); // DEADLOCK: holds a, waits for b
    x++;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return NULL;
}

static void *second(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&c); // DEADLOCK: holds b, waits for c
    y++;
    pthread_mutex_unlock(&c);
    pthread_mutex_unlock(&b);
    return NULL;
}

static void *third(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&c);
    pthread_mutex_lock(&a); // DEADLOCK: holds c, waits for a
    z++;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&c);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2, t3;
    pthread_create(&t1, NULL, first, NULL);
    pthread_create(&t2, NULL, second, NULL);
    pthread_create(&t3, NULL, third, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_join(t3, NULL);
    return 0;
}
