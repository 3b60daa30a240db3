/* Turns through a lock object made on the heap and kept in a global pointer,
 * set once by main before the loader starts: wait_for(b, op, v) waits for the
 * object's value to be v (TO_BE) or not, twist(b, op, v) sets it (TO) or adds
 * v (BY), wakes the waiters, unlocks. `batch` is NORACE (filled while the value
 * is 0, read while it is not). `late`, written by main out of its turn, is a
 * RACE with the loader's read. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
struct bolt { pthread_mutex_t mutex; pthread_cond_t cond; long value; };
enum twist_op { TO, BY };
enum wait_op { TO_BE, NOT_TO_BE };

static struct bolt *state;
static struct bolt *new_bolt(long v)
{
    struct bolt *b = malloc(sizeof *b);
    if (!b) abort();
    pthread_mutex_init(&b->mutex, NULL);
    pthread_cond_init(&b->cond, NULL);
    b->value = v;
    return b;
}
static long batch, sum, late;
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
    switch (op) {
    case TO_BE:
        while (b->value != val)
            pthread_cond_wait(&b->cond, &b->mutex);
        break;
    case NOT_TO_BE:
        while (b->value == val)
            pthread_cond_wait(&b->cond, &b->mutex);
    }
}
static void *loader(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        possess(state);
        wait_for(state, NOT_TO_BE, 0);
        release(state);
        sum += batch; // NORACE
        if (late > 1) // RACE
            sum++;
        possess(state);
        twist(state, TO, 0);
    }
    return NULL;
}
int main(void)
{
    pthread_t t;
    state = new_bolt(0);
    pthread_create(&t, NULL, loader, NULL);
    for (int i = 0; i < 3; i++) {
        possess(state);
        wait_for(state, TO_BE, 0);
        release(state);
        batch = i; // NORACE
        possess(state);
        twist(state, BY, 1);
        late = i; // RACE
    }
    pthread_join(t, NULL);
    printf("%ld\n", sum);
    return 0;
}
