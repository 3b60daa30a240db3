/*
 * queue.c - bounded connection queue (ring buffer + mutex + condition).
 *
 * There is exactly one queue per server; it is created by main() before
 * the listener and the workers start and shared by pointer.
 */
#include <pthread.h>
#include <stdlib.h>

#include "queue.h"

struct conn_queue {
    pthread_mutex_t   lock;
    pthread_cond_t    not_empty;
    struct conn_item *items;         /* ring buffer of 'capacity' slots */
    int               capacity;
    int               head;          /* next slot to pop */
    int               count;         /* queued connections */
    int               in_flight;     /* queued + being served */
    int               closed;
    unsigned long     total;         /* connections ever queued */
};

struct conn_queue *queue_create(int capacity)
{
    struct conn_queue *q;

    if (capacity <= 0)
        return NULL;
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->items = calloc((size_t)capacity, sizeof *q->items);
    if (q->items == NULL) {
        free(q);
        return NULL;
    }
    if (pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q->items);
        free(q);
        return NULL;
    }
    if (pthread_cond_init(&q->not_empty, NULL) != 0) {
        pthread_mutex_destroy(&q->lock);
        free(q->items);
        free(q);
        return NULL;
    }
    q->capacity = capacity;
    return q;
}

/* Only called once every thread using the queue has been joined. */
void queue_destroy(struct conn_queue *q)
{
    if (q == NULL)
        return;
    pthread_mutex_lock(&q->lock);
    free(q->items); // NORACE: q->lock held; in a warning's context because the peer address, cast to struct sockaddr * for accept(), makes the listener's and workers' conn_item copies one conflated location with the queue's slots
    q->items = NULL; // NORACE: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    q->count = 0; // NORACE: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    pthread_mutex_unlock(&q->lock);
    pthread_cond_destroy(&q->not_empty);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

int queue_push(struct conn_queue *q, const struct conn_item *item, int limit)
{
    int rc = QUEUE_OK;

    pthread_mutex_lock(&q->lock);
    if (q->closed) { // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        rc = QUEUE_CLOSED;
    } else if (q->in_flight >= limit || q->count == q->capacity) { // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        rc = QUEUE_BUSY;
    } else {
        int tail = (q->head + q->count) % q->capacity; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        q->items[tail] = *item; // FALSE-ALARM: q->lock held; listed because the peer address, cast to struct sockaddr * for accept(), makes the listener's and workers' conn_item copies one conflated location with the queue's slots
        q->count++; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        q->in_flight++; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        q->total++; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        pthread_cond_signal(&q->not_empty);
    }
    pthread_mutex_unlock(&q->lock);
    return rc;
}

int queue_pop(struct conn_queue *q, struct conn_item *out)
{
    int rc = 0;

    pthread_mutex_lock(&q->lock);
    while (q->count == 0 && !q->closed) // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        pthread_cond_wait(&q->not_empty, &q->lock);
    if (q->count == 0) { // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        rc = -1;                         /* closed and drained */
    } else {
        *out = q->items[q->head]; // FALSE-ALARM: q->lock held; listed because the peer address, cast to struct sockaddr * for accept(), makes the listener's and workers' conn_item copies one conflated location with the queue's slots
        q->head = (q->head + 1) % q->capacity; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
        q->count--; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    }
    pthread_mutex_unlock(&q->lock);
    return rc;
}

void queue_done(struct conn_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->in_flight--; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    pthread_mutex_unlock(&q->lock);
}

int queue_in_flight(struct conn_queue *q)
{
    int n;

    pthread_mutex_lock(&q->lock);
    n = q->in_flight; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    pthread_mutex_unlock(&q->lock);
    return n;
}

unsigned long queue_total(struct conn_queue *q)
{
    unsigned long n;

    pthread_mutex_lock(&q->lock);
    n = q->total; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    pthread_mutex_unlock(&q->lock);
    return n;
}

void queue_close(struct conn_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closed = 1; // NORACE needs=joins: q->lock held; free(q) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    pthread_cond_broadcast(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}
