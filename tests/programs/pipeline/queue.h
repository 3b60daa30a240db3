/*
 * queue.h - bounded blocking FIFO of pointers, one mutex and two condition
 * variables per queue.  Items are owned by whoever holds them: push hands
 * an item over to the consumer that pops it.
 */
#ifndef QUEUE_H
#define QUEUE_H

#include <stddef.h>

struct queue;

struct queue_stats {
    unsigned long   pushed;
    unsigned long   full_waits;   /* pushes that had to wait for room */
    size_t          high_water;   /* deepest the queue has been */
};

/* Returns NULL and sets errno on failure. */
struct queue *queue_new(size_t cap, const char *name);

/* Frees the queue; items still queued are passed to dtor (if not NULL). */
void queue_free(struct queue *q, void (*dtor)(void *));

/* Blocks while the queue is full.  Pushing onto a closed queue is a bug. */
void queue_push(struct queue *q, void *item);

/* Blocks while the queue is empty; NULL once it is closed and drained. */
void *queue_pop(struct queue *q);

/* End of stream: wakes every waiter; pops drain what is left. */
void queue_close(struct queue *q);

/* Approximate number of queued items, for statistics only. */
size_t queue_len(const struct queue *q);

const char *queue_name(const struct queue *q);
void queue_get_stats(struct queue *q, struct queue_stats *st);

#endif /* QUEUE_H */
