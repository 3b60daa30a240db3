/*
 * server.h - listener and worker threads.
 */
#ifndef WEBCACHE_SERVER_H
#define WEBCACHE_SERVER_H

#include <signal.h>

#include "queue.h"

struct server {
    int                listen_fd;
    int                port;         /* actual port after bind */
    struct conn_queue *queue;
};

struct worker_arg {
    int            id;
    struct server *srv;
};

/* Set by the SIGTERM/SIGINT handler in main.c. */
extern volatile sig_atomic_t g_shutting_down;

int   server_listen(struct server *srv, const char *addr, int port, int backlog);
void *listener_main(void *arg);
void *worker_main(void *arg);

#endif /* WEBCACHE_SERVER_H */
