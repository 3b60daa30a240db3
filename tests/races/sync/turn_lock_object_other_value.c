/* Turns through a lock object, broken: the loader waits for the value not to
 * be 3 where it should wait for it not to be 0, so it takes the turn main
 * holds while the value is 0. main's write of `batch` and the loader's read
 * race (RACE), though each is made after a wait_for. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

struct bolt {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    long value;
};
enum twist_op { TO, BY };
enum wait_op { TO_BE, NOT_TO_BE };

static struct bolt state = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
static long batch, sum;

static void possess(struct bolt *b) { pthread_mutex_lock(&b->mutex); }
static void release(struct bolt *b) { pthread_mutex_unlock(&b->mutex); }

static void twist(struct bolt *b, enum twist_op op, long val)
{
    if (op == TO)
        b->value = val;
    else
        b->value += val;
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->mutex);
}

static void wait_for(struct bolt *b, enum wait_op op, long val)
{
    if (op == TO_BE) {
        while (b->value != val)
            pthread_cond_wait(&b->cond, &b->mutex);
    } else {
        while (b->value == val)
            pthread_cond_wait(&b->cond, &b->mutex);
    }
}

static void *loader(void *arg)
{
    (void)arg;
    possess(&state);
    wait_for(&state, NOT_TO_BE, 3);
    release(&state);
    usleep(20000);
    sum += batch; // RACE
    possess(&state);
    twist(&state, TO, 0);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, loader, NULL);
    possess(&state);
    wait_for(&state, TO_BE, 0);
    release(&state);
    batch = 7; // RACE
    usleep(50000);
    possess(&state);
    twist(&state, TO, 1);
    pthread_join(t, NULL);
    printf("%ld\n", sum);
    return 0;
}
