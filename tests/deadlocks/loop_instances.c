/* One thread function, started in a loop: an instance that takes `in` then `out` and another
 * that takes `out` then `in` (by its argument) wait for each other. */
#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t in = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;
static int pending;

static void *pump(void *arg)
{
    if ((intptr_t)arg % 2) {
        pthread_mutex_lock(&in);
        pthread_mutex_lock(&out); // DEADLOCK: another instance holds out, waits for in
        pending--;
        pthread_mutex_unlock(&out);
        pthread_mutex_unlock(&in);
    } else {
        pthread_mutex_lock(&out);
        pthread_mutex_lock(&in); // DEADLOCK: another instance holds in, waits for out
        pending++;
        pthread_mutex_unlock(&in);
        pthread_mutex_unlock(&out);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    for (intptr_t i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, pump, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    return 0;
}
