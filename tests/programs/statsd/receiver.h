/*
 * receiver.h - threads that read datagrams and feed the registry.
 */
#ifndef STATSD_RECEIVER_H
#define STATSD_RECEIVER_H

#include <pthread.h>
#include <stddef.h>

#define MAX_RECEIVERS 16

struct receiver_ctx {
    int id;
    int fd;          /* UDP socket (shared) or one end of a socketpair */
};

/* Server-wide counters; all fields are protected by `lock`. */
struct server_stats {
    pthread_mutex_t lock;
    unsigned long packets_received;
    unsigned long bytes_received;
    unsigned long lines_parsed;
    unsigned long bad_lines;
    unsigned long packets_dropped;
};

extern struct server_stats g_stats;

struct stats_view {
    unsigned long packets_received;
    unsigned long bytes_received;
    unsigned long lines_parsed;
    unsigned long bad_lines;
    unsigned long packets_dropped;
};

/* Thread entry point; arg is a struct receiver_ctx *. */
void *receiver_main(void *arg);

/* Asks the receivers to exit once their socket is drained. */
void receivers_request_stop(void);

/* Consistent copy of g_stats. */
void stats_snapshot(struct stats_view *out);

#endif /* STATSD_RECEIVER_H */
