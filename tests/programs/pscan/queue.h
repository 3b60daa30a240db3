/*
 * queue.h - bounded FIFO of file paths between the directory walker and
 * the scanner threads.
 */
#ifndef PSCAN_QUEUE_H
#define PSCAN_QUEUE_H

#include <limits.h>
#include <stddef.h>

/* Longest path (including the NUL) a queue slot can hold. */
#define QUEUE_SLOT_SIZE PATH_MAX

struct work_queue;

struct queue_stats {
    unsigned long pushed;       /* paths ever queued */
    size_t high_water;          /* largest depth seen */
    unsigned long full_waits;   /* times the producer blocked on a full queue */
};

/* Create a queue with room for `capacity` paths.  NULL + errno on failure. */
struct work_queue *queue_create(size_t capacity);

/* Free the queue.  No thread may still be using it. */
void queue_destroy(struct work_queue *q);

/*
 * Append a copy of `path`, blocking while the queue is full.
 * Returns 0, or ENAMETOOLONG if the path does not fit in a slot.
 */
int queue_push(struct work_queue *q, const char *path);

/*
 * Remove the oldest path and copy it into buf (bufsz bytes), blocking while
 * the queue is empty.  Returns 1 when a path was stored, 0 once the queue
 * has been closed and drained.
 */
int queue_pop(struct work_queue *q, char *buf, size_t bufsz);

/* No more pushes will follow; wakes every thread blocked in queue_pop(). */
void queue_close(struct work_queue *q);

/* Number of paths waiting. */
size_t queue_depth(struct work_queue *q);

size_t queue_capacity(const struct work_queue *q);

/* Has queue_close() been called?  Cheap, for status displays. */
int queue_closed(const struct work_queue *q);

void queue_get_stats(struct work_queue *q, struct queue_stats *out);

#endif /* PSCAN_QUEUE_H */
