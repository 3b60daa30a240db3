/* A gate lock held on one path only gates nothing: `rightward` takes `gate` only when it is
 * careful, then `left` and `right`; `leftward` takes `gate`, then `right` and `left`. When
 * `rightward` is not careful, it holds `left` without `gate` while `leftward` holds `right`
 * under it, and each waits for the other's lock: a potential deadlock. Compare gate_lock.c,
 * where both threads hold the gate on every path. */
#include <pthread.h>

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t left = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t right = PTHREAD_MUTEX_INITIALIZER;
static int moved, careful;

static void *rightward(void *arg)
{
    (void)arg;
    if (careful)
        pthread_mutex_lock(&gate); // NODEADLOCK
    pthread_mutex_lock(&left); // NODEADLOCK
    pthread_mutex_lock(&right); // DEADLOCK: holds left, perhaps without gate
    moved++;
    pthread_mutex_unlock(&right);
    pthread_mutex_unlock(&left);
    if (careful)
        pthread_mutex_unlock(&gate);
    return NULL;
}

static void *leftward(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&gate); // NODEADLOCK
    pthread_mutex_lock(&right); // NODEADLOCK
    pthread_mutex_lock(&left); // DEADLOCK: holds right and gate
    moved--;
    pthread_mutex_unlock(&left);
    pthread_mutex_unlock(&right);
    pthread_mutex_unlock(&gate);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t a, b;

    (void)argv;
    careful = argc > 1;
    pthread_create(&a, NULL, rightward, NULL);
    pthread_create(&b, NULL, leftward, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return moved;
}
