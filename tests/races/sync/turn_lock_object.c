/* Turns through a lock object, as a thread library hands them over: `state`
 * holds a mutex, a condition and a value; wait_for(b, op, v) waits for it to
 * be v (TO_BE) or not, twist(b, op, v) sets it (TO) or adds v (BY), wakes the
 * waiters, unlocks. main fills `batch` while the value is 0, the loader reads
 * it while it is not: NORACE, as is `stats` under another object's mutex.
 * `late`, written by main out of its turn, is a RACE with the loader's read. */
#include <pthread.h>
#include <stdio.h>

struct bolt { pthread_mutex_t mutex; pthread_cond_t cond; long value; };
enum twist_op { TO, BY };
enum wait_op { TO_BE, NOT_TO_BE };

static struct bolt state = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
static struct bolt gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
static long batch, sum, late, stats;
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
        possess(&state);
        wait_for(&state, NOT_TO_BE, 0);
        release(&state);
        sum += batch; // NORACE
        if (late > 1) // RACE
            sum++;
        possess(&gate);
        stats++; // NORACE
        release(&gate);
        possess(&state);
        twist(&state, TO, 0);
    }
    return NULL;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, loader, NULL);
    for (int i = 0; i < 3; i++) {
        possess(&state);
        wait_for(&state, TO_BE, 0);
        release(&state);
        batch = i; // NORACE
        possess(&state);
        twist(&state, BY, 1);
        late = i; // RACE
        possess(&gate);
        stats++;
        release(&gate);
    }
    pthread_join(t, NULL);
    printf("%ld %ld\n", sum, stats);
    return 0;
}
