/* One array of mutexes: two threads lock two of its elements in opposite orders. One label
 * stands for every element, so the cycle is between the label and itself, through two lock
 * calls that may run at once. */
#include <pthread.h>

static pthread_mutex_t slot[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static int value[2];

static void *swap_up(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&slot[0]);
    pthread_mutex_lock(&slot[1]); // DEADLOCK: holds slot[0], waits for slot[1]
    int t = value[0];
    value[0] = value[1];
    value[1] = t;
    pthread_mutex_unlock(&slot[1]);
    pthread_mutex_unlock(&slot[0]);
    return NULL;
}

static void *swap_down(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&slot[1]);
    pthread_mutex_lock(&slot[0]); // DEADLOCK: holds slot[1], waits for slot[0]
    int t = value[1];
    value[1] = value[0];
    value[0] = t;
    pthread_mutex_unlock(&slot[0]);
    pthread_mutex_unlock(&slot[1]);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, swap_up, NULL);
    pthread_create(&b, NULL, swap_down, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
