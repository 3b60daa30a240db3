/*
 * flusher.h - periodic report writer.
 */
#ifndef STATSD_FLUSHER_H
#define STATSD_FLUSHER_H

#include <signal.h>

/* Set by the SIGUSR1 handler; the flusher dumps the counters when it sees it. */
extern volatile sig_atomic_t dump_requested;

struct flusher_totals {
    unsigned long flushes;
    unsigned long dumps;
    double counter_total;      /* sum of all flushed counter values */
    double timer_count_total;  /* sum of all flushed timer counts */
};

/* Opens the output named by g_config.output_path and starts the thread. */
int flusher_start(void);

/* Wakes the flusher, lets it write a final report, and joins it. */
void flusher_stop(void);

/* Only meaningful after flusher_stop() has returned. */
void flusher_get_totals(struct flusher_totals *out);

#endif /* STATSD_FLUSHER_H */
