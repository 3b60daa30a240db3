/*
 * queue.c - bounded FIFO of file paths.
 *
 * A classic ring buffer protected by one mutex and two condition
 * variables.  Paths are copied into fixed-size slots so that neither side
 * has to worry about who frees what.  The program creates exactly one
 * queue (in run_scan()) and hands the pointer to every thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "queue.h"

struct work_queue {
    pthread_mutex_t lock;
    pthread_cond_t not_empty;   /* signalled on push and on close */
    pthread_cond_t not_full;    /* signalled on pop */
    size_t capacity;            /* fixed at creation */
    size_t head;                /* next slot to pop */
    size_t tail;                /* next slot to fill */
    size_t count;               /* paths waiting */
    size_t high_water;
    unsigned long pushed;
    unsigned long full_waits;
    int closed;                 /* set once by queue_close() */
    char *slots;                /* capacity * QUEUE_SLOT_SIZE bytes */
};

struct work_queue *queue_create(size_t capacity)
{
    struct work_queue *q;
    int rc;

    if (capacity == 0) {
        errno = EINVAL;
        return NULL;
    }
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->slots = calloc(capacity, QUEUE_SLOT_SIZE);
    if (q->slots == NULL) {
        free(q);
        errno = ENOMEM;
        return NULL;
    }
    q->capacity = capacity;

    if ((rc = pthread_mutex_init(&q->lock, NULL)) != 0)
        goto fail_mutex;
    if ((rc = pthread_cond_init(&q->not_empty, NULL)) != 0)
        goto fail_not_empty;
    if ((rc = pthread_cond_init(&q->not_full, NULL)) != 0)
        goto fail_not_full;
    return q;

fail_not_full:
    pthread_cond_destroy(&q->not_empty);
fail_not_empty:
    pthread_mutex_destroy(&q->lock);
fail_mutex:
    free(q->slots);
    free(q);
    errno = rc;
    return NULL;
}

void queue_destroy(struct work_queue *q)
{
    if (q == NULL)
        return;
    pthread_cond_destroy(&q->not_full);
    pthread_cond_destroy(&q->not_empty);
    pthread_mutex_destroy(&q->lock);
    free(q->slots);
    free(q);
}

int queue_push(struct work_queue *q, const char *path)
{
    size_t len = strlen(path);

    if (len >= QUEUE_SLOT_SIZE)
        return ENAMETOOLONG;

    pthread_mutex_lock(&q->lock);
    if (q->count == q->capacity) // NORACE
        q->full_waits++; // NORACE
    while (q->count == q->capacity) // NORACE
        pthread_cond_wait(&q->not_full, &q->lock);

    memcpy(q->slots + q->tail * QUEUE_SLOT_SIZE, path, len + 1); // NORACE
    q->tail = (q->tail + 1) % q->capacity; // NORACE
    q->count++; // NORACE
    if (q->count > q->high_water) // NORACE
        q->high_water = q->count; // NORACE
    q->pushed++; // NORACE

    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
    return 0;
}

int queue_pop(struct work_queue *q, char *buf, size_t bufsz)
{
    const char *slot;
    size_t len;

    pthread_mutex_lock(&q->lock);
    while (q->count == 0) { // NORACE
        if (q->closed) { // NORACE: read under q->lock, which queue_close's write holds too
            pthread_mutex_unlock(&q->lock);
            return 0;
        }
        pthread_cond_wait(&q->not_empty, &q->lock);
    }

    slot = q->slots + q->head * QUEUE_SLOT_SIZE; // NORACE
    len = strlen(slot); // NORACE
    if (len >= bufsz)
        len = bufsz - 1;
    memcpy(buf, slot, len); // NORACE
    buf[len] = '\0';
    q->head = (q->head + 1) % q->capacity; // NORACE
    q->count--; // NORACE

    pthread_cond_signal(&q->not_full);
    pthread_mutex_unlock(&q->lock);
    return 1;
}

void queue_close(struct work_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closed = 1; // RACE(q_closed)
    pthread_cond_broadcast(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

size_t queue_depth(struct work_queue *q)
{
    size_t n;

    pthread_mutex_lock(&q->lock);
    n = q->count; // NORACE
    pthread_mutex_unlock(&q->lock);
    return n;
}

size_t queue_capacity(const struct work_queue *q)
{
    return q->capacity; // NORACE: fixed before any thread starts
}

/*
 * The flag only ever goes from 0 to 1, so a stale answer just means the
 * status line says "walking" for one more tick; no need to take the lock.
 */
int queue_closed(const struct work_queue *q)
{
    return q->closed; // RACE(q_closed): read without q->lock
}

void queue_get_stats(struct work_queue *q, struct queue_stats *out)
{
    pthread_mutex_lock(&q->lock);
    out->pushed = q->pushed; // NORACE
    out->high_water = q->high_water; // NORACE
    out->full_waits = q->full_waits; // NORACE
    pthread_mutex_unlock(&q->lock);
}
