/*
 * queue.h - bounded queue of accepted connections, listener -> workers.
 */
#ifndef WEBCACHE_QUEUE_H
#define WEBCACHE_QUEUE_H

#include <netinet/in.h>

struct conn_item {
    int                fd;       /* accepted socket, owned by the queue */
    struct sockaddr_in peer;     /* client address, for logs and ACLs */
};

struct conn_queue;

/* return values of queue_push() */
#define QUEUE_OK       0
#define QUEUE_BUSY    -1         /* too many connections in flight */
#define QUEUE_CLOSED  -2

struct conn_queue *queue_create(int capacity);
void queue_destroy(struct conn_queue *q);

/*
 * Enqueue a connection unless 'limit' connections are already queued or
 * being served.  The item is copied.
 */
int  queue_push(struct conn_queue *q, const struct conn_item *item, int limit);

/* Block until a connection is available; -1 once closed and drained. */
int  queue_pop(struct conn_queue *q, struct conn_item *out);

/* A worker has finished serving a connection obtained by queue_pop(). */
void queue_done(struct conn_queue *q);

int  queue_in_flight(struct conn_queue *q);
unsigned long queue_total(struct conn_queue *q);

/* Wake all workers; queue_pop() fails once the queue is empty. */
void queue_close(struct conn_queue *q);

#endif /* WEBCACHE_QUEUE_H */
