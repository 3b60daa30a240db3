/*
 * stats.h - scan statistics and the progress reporter thread.
 */
#ifndef PSCAN_STATS_H
#define PSCAN_STATS_H

#include <limits.h>
#include <pthread.h>
#include <stdio.h>

#include "queue.h"

struct scan_stats {
    unsigned long files_scanned;        /* bumped once per file by the workers */
    unsigned long files_matched;
    unsigned long files_binary;
    unsigned long errors;
    unsigned long long bytes_scanned;
    unsigned long long matches;
    long long largest_size;             /* biggest text file seen so far */
    char largest_path[PATH_MAX];
};

/* The live counters, guarded by g_stats_lock. */
extern struct scan_stats g_stats;
extern pthread_mutex_t g_stats_lock;

/* Account one fully scanned text file. */
void stats_record_file(unsigned long long bytes, long nmatches);
void stats_record_binary(void);
void stats_record_error(void);

/* Remember `path` if it is the biggest file so far. */
void stats_note_size(const char *path, long long size);

/* Copy the counters. */
void stats_snapshot(struct scan_stats *out);

/*
 * Start the reporter thread: every interval_ms milliseconds (never if 0)
 * it prints a progress line to `out`.  Call once.  Returns 0 or an errno.
 */
int reporter_start(struct work_queue *q, unsigned interval_ms, FILE *out);

/* Stop and join the reporter; *final receives the last counters it saw. */
void reporter_stop(struct scan_stats *final);

#endif /* PSCAN_STATS_H */
