/* The two threads take `left` and `right` in opposite orders, but always inside the section of
 * `gate`, so only one of them is ever between its two lock calls: no deadlock. */
#include <pthread.h>

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t left = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t right = PTHREAD_MUTEX_INITIALIZER;
static int moved;

static void *rightward(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&gate);
    pthread_mutex_lock(&left);
    pthread_mutex_lock(&right); // NODEADLOCK: gate is held
    moved++;
    pthread_mutex_unlock(&right);
    pthread_mutex_unlock(&left);
    pthread_mutex_unlock(&gate);
    return NULL;
}

static void *leftward(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&gate);
    pthread_mutex_lock(&right);
    pthread_mutex_lock(&left); // NODEADLOCK: gate is held
    moved--;
    pthread_mutex_unlock(&left);
    pthread_mutex_unlock(&right);
    pthread_mutex_unlock(&gate);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, rightward, NULL);
    pthread_create(&b, NULL, leftward, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
