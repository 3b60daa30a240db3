/* A gate its callee releases on one path gates nothing below it: `rightward` holds `gate` when
 * it calls `step`, which gives it up while it is lazy, and otherwise gives it up and takes it
 * again, before `shift` takes `left`, then `right`. On the lazy path `rightward` holds `left`
 * without `gate` while `leftward` holds `right` under it: a potential deadlock. `step` holds
 * `gate` again on one of its paths, yet not on every path, at its call of `shift`. */
#include <pthread.h>

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t left = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t right = PTHREAD_MUTEX_INITIALIZER;
static int moved, lazy;

static void shift(void)
{
    pthread_mutex_lock(&left); // NODEADLOCK
    pthread_mutex_lock(&right); // DEADLOCK: holds left, perhaps without gate
    moved++;
    pthread_mutex_unlock(&right);
    pthread_mutex_unlock(&left);
}

static void step(void)
{
    if (lazy) {
        pthread_mutex_unlock(&gate);
    } else {
        pthread_mutex_unlock(&gate);
        pthread_mutex_lock(&gate); // NODEADLOCK
    }
    shift();
    if (lazy)
        pthread_mutex_lock(&gate); // NODEADLOCK
}

static void *rightward(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&gate); // NODEADLOCK
    step();
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
    lazy = argc > 1;
    pthread_create(&a, NULL, rightward, NULL);
    pthread_create(&b, NULL, leftward, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return moved;
}
