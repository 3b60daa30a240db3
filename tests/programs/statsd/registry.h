/*
 * registry.h - the shared table of named metrics.
 *
 * One mutex (private to registry.c) protects the whole table.  Receivers
 * record samples into it; the flusher takes a snapshot once per interval,
 * which also resets counters and timers.
 */
#ifndef STATSD_REGISTRY_H
#define STATSD_REGISTRY_H

#include <stdio.h>
#include <time.h>
#include "parse.h"

#define HIST_BUCKETS 16

struct timer_snapshot {
    double count;                    /* scaled by the sample rates */
    double sum;
    double min;
    double max;
    unsigned long hist[HIST_BUCKETS];
    double *samples;                 /* owned by the snapshot */
    size_t nsamples;
};

struct metric_snapshot {
    char name[METRIC_NAME_MAX];
    enum metric_type type;
    double counter;
    double gauge;
    unsigned long updates;           /* samples since the previous flush */
    time_t last_seen;
    struct timer_snapshot timer;
};

/* Records one parsed sample. Returns -1 if the metric could not be stored. */
int registry_record(const struct sample *s, time_t now);

/*
 * Copies every metric into a freshly allocated array and resets counters and
 * timers.  Free the result with registry_free_snapshot().
 */
int registry_snapshot(struct metric_snapshot **out, size_t *count);
void registry_free_snapshot(struct metric_snapshot *snap, size_t count);

/* Writes the current (unflushed) counter values; used for SIGUSR1 dumps. */
void registry_dump_counters(FILE *out);

size_t registry_size(void);
unsigned long registry_rejected(void);
void registry_destroy(void);

/* Upper bound in milliseconds of histogram bucket i (last bucket: +inf). */
double registry_hist_bound(int i);

#endif /* STATSD_REGISTRY_H */
