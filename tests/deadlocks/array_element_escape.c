/* Two elements of a global array of mutexes, taken in opposite orders: directly by constants in
 * one thread, and in the other through a pointer that holds the address of one element. A lock
 * through the pointer may be any element, so the elements are not locks of their own here: the
 * array keeps its one label, and the cycle between two of its elements is still reported. */
#include <pthread.h>

static pthread_mutex_t pair[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t *second = &pair[1];
static long moved;

static void *forwards(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pair[0]);
    pthread_mutex_lock(&pair[1]); // DEADLOCK: holds pair[0], waits for pair[1]
    moved++;
    pthread_mutex_unlock(&pair[1]);
    pthread_mutex_unlock(&pair[0]);
    return NULL;
}

static void *backwards(void *arg)
{
    (void)arg;
    pthread_mutex_lock(second);
    pthread_mutex_lock(&pair[0]); // DEADLOCK: holds pair[1] through the pointer, waits for pair[0]
    moved--;
    pthread_mutex_unlock(&pair[0]);
    pthread_mutex_unlock(second);
    return NULL;
}

int main(void)
{
    pthread_t t, u;
    pthread_create(&t, NULL, forwards, NULL);
    pthread_create(&u, NULL, backwards, NULL);
    pthread_join(t, NULL);
    pthread_join(u, NULL);
    return 0;
}
