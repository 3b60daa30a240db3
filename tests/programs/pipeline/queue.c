/*
 * queue.c - bounded blocking FIFO of pointers.
 */
#include "queue.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t  not_empty;
    pthread_cond_t  not_full;
    void          **slots;        /* ring buffer of cap entries */
    size_t          cap;
    size_t          head;         /* next slot to pop */
    size_t          tail;         /* next slot to fill */
    size_t          count;        /* items currently queued */
    int             closed;
    unsigned long   pushed;
    unsigned long   full_waits;
    size_t          high_water;
    const char     *name;
};

struct queue *queue_new(size_t cap, const char *name)
{
    struct queue *q;
    int rc;

    if (cap == 0) {
        errno = EINVAL;
        return NULL;
    }
    q = malloc(sizeof *q);
    if (q == NULL)
        return NULL;
    q->slots = calloc(cap, sizeof *q->slots);
    if (q->slots == NULL) {
        free(q);
        return NULL;
    }
    if ((rc = pthread_mutex_init(&q->lock, NULL)) != 0)
        goto fail_slots;
    if ((rc = pthread_cond_init(&q->not_empty, NULL)) != 0)
        goto fail_lock;
    if ((rc = pthread_cond_init(&q->not_full, NULL)) != 0)
        goto fail_cond;

    q->cap = cap;
    q->head = 0;
    q->tail = 0;
    q->count = 0;
    q->closed = 0;
    q->pushed = 0;
    q->full_waits = 0;
    q->high_water = 0;
    q->name = name;
    return q;

fail_cond:
    pthread_cond_destroy(&q->not_empty);
fail_lock:
    pthread_mutex_destroy(&q->lock);
fail_slots:
    free(q->slots);
    free(q);
    errno = rc;
    return NULL;
}

void queue_free(struct queue *q, void (*dtor)(void *))
{
    if (q == NULL)
        return;
    pthread_mutex_lock(&q->lock);
    while (q->count > 0) {
        if (dtor != NULL)
            dtor(q->slots[q->head]);
        q->head = (q->head + 1) % q->cap;
        q->count--;
    }
    pthread_mutex_unlock(&q->lock);

    pthread_cond_destroy(&q->not_full);
    pthread_cond_destroy(&q->not_empty);
    pthread_mutex_destroy(&q->lock);
    free(q->slots);
    free(q);
}

void queue_push(struct queue *q, void *item)
{
    pthread_mutex_lock(&q->lock);
    assert(!q->closed);
    if (q->count == q->cap)
        q->full_waits++;                        // NORACE needs=context+existentials,field: q->lock
    while (q->count == q->cap)
        pthread_cond_wait(&q->not_full, &q->lock);

    q->slots[q->tail] = item;                   // NORACE needs=context+existentials,field: q->lock (one lock per queue; the slots block is q's own)
    q->tail = (q->tail + 1) % q->cap;           // NORACE needs=context+existentials,field: q->lock
    q->count++;                                 // RACE(qdepth): q_in's count is also read by queue_len() without the lock
    if (q->count > q->high_water)
        q->high_water = q->count;
    q->pushed++;                                // NORACE needs=context+existentials,field: q->lock

    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

void *queue_pop(struct queue *q)
{
    void *item;

    pthread_mutex_lock(&q->lock);
    while (q->count == 0 && !q->closed)
        pthread_cond_wait(&q->not_empty, &q->lock);
    if (q->count == 0) {
        /* closed and drained */
        pthread_mutex_unlock(&q->lock);
        return NULL;
    }

    item = q->slots[q->head];                   // NORACE needs=context+existentials: q->lock (one lock per queue)
    q->slots[q->head] = NULL;                   // NORACE needs=context+existentials: q->lock
    q->head = (q->head + 1) % q->cap;           // NORACE needs=context+existentials: q->lock
    q->count--;

    pthread_cond_signal(&q->not_full);
    pthread_mutex_unlock(&q->lock);
    return item;
}

void queue_close(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closed = 1;                              // NORACE needs=context+existentials,field: q->lock
    pthread_cond_broadcast(&q->not_empty);
    pthread_cond_broadcast(&q->not_full);
    pthread_mutex_unlock(&q->lock);
}

/*
 * Only used to sample queue depth for the statistics, so skip the lock:
 * a value that is off by one now and then does not matter there.
 */
size_t queue_len(const struct queue *q)
{
    return q->count;                            // RACE(qdepth): read without q->lock
}

const char *queue_name(const struct queue *q)
{
    return q->name;
}

void queue_get_stats(struct queue *q, struct queue_stats *st)
{
    pthread_mutex_lock(&q->lock);
    st->pushed = q->pushed;                     // NORACE: q->lock
    st->full_waits = q->full_waits;             // NORACE: q->lock
    st->high_water = q->high_water;
    pthread_mutex_unlock(&q->lock);
}
