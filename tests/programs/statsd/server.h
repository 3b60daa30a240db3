/*
 * server.h - thread orchestration and signal plumbing.
 */
#ifndef STATSD_SERVER_H
#define STATSD_SERVER_H

struct server_summary {
    unsigned long packets_received;
    unsigned long bytes_received;
    unsigned long lines_parsed;
    unsigned long bad_lines;
    unsigned long packets_dropped;
    unsigned long reloads;
};

/* Creates the self-pipe and installs the signal handlers. */
int server_signals_init(void);

/*
 * Starts the flusher and one receiver per entry of fds (the same fd may
 * appear several times).  Exits the process if a thread cannot be created.
 */
int server_start(const int *fds, int count);

/* Stops and joins every thread started by server_start(). */
void server_stop(void);

/*
 * Waits up to timeout_ms (-1: forever) for a signal notification.
 * Returns 'H' (reload), 'T' (terminate), 0 on timeout, -1 on error.
 */
int server_wait_signal(int timeout_ms);

/* Acts on a notification; returns 1 if the server should shut down. */
int server_dispatch(int code);

/* Supervisor loop of the daemon: returns when asked to terminate. */
void server_run(void);

/* Final counters; call only after server_stop(). */
void server_get_summary(struct server_summary *out);

#endif /* STATSD_SERVER_H */
