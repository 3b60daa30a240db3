/* A condition wait inside a helper that takes the lock object as a parameter, the way a thread
 * library wraps its waits: `await_state(q, v)` loops on `cond_wait(&q->cond, &q->mutex)` until
 * the state is `v`, and its caller holds `q->mutex` around the call. The wait releases the
 * mutex and takes it again, so the caller still holds it when the helper returns, whether it
 * waited or not: `served` after the call is protected (NORACE; reported before, when the path
 * that waited and the one that did not met in the helper and the caller's hold was lost). The
 * helper that releases the mutex after its wait (`await_and_leave`) leaves its caller without
 * it: `left` races (RACE). */
#include <pthread.h>
#include <stdio.h>

struct gate {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    long state;
};

static struct gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
static long served, left;

static void await_state(struct gate *q, long v)
{
    while (q->state != v) // NORACE: the caller holds q->mutex, retaken by each wait
        pthread_cond_wait(&q->cond, &q->mutex);
}

static void await_and_leave(struct gate *q, long v)
{
    while (q->state < v) // NORACE: the caller holds q->mutex
        pthread_cond_wait(&q->cond, &q->mutex);
    pthread_mutex_unlock(&q->mutex);
}

static void *producer(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&g.mutex);
        await_state(&g, 0);
        served++; // NORACE: g.mutex is held again after the helper's wait
        g.state = 1;
        pthread_cond_broadcast(&g.cond);
        pthread_mutex_unlock(&g.mutex);
    }
    pthread_mutex_lock(&g.mutex);
    await_and_leave(&g, 0);
    left++; // RACE: the helper released g.mutex
    return arg;
}

static void *consumer(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&g.mutex);
        await_state(&g, 1);
        served++; // NORACE: g.mutex is held again after the helper's wait
        g.state = 0;
        pthread_cond_broadcast(&g.cond);
        pthread_mutex_unlock(&g.mutex);
    }
    pthread_mutex_lock(&g.mutex);
    await_and_leave(&g, 0);
    left++; // RACE: the helper released g.mutex
    return arg;
}

int main(void)
{
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("%ld %ld\n", served, left);
    return 0;
}
