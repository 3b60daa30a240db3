/*
 * stats.c - scan statistics and the progress reporter thread.
 *
 * The counters live in one global structure guarded by g_stats_lock.  The
 * reporter is a single thread that wakes up every few hundred milliseconds
 * (as configured with -s), takes a snapshot and prints one status line.
 * When the scan is over, main() stops it with reporter_stop(), which
 * joins it and hands back the last snapshot it took.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "stats.h"

struct scan_stats g_stats;
pthread_mutex_t g_stats_lock = PTHREAD_MUTEX_INITIALIZER;

void stats_record_file(unsigned long long bytes, long nmatches)
{
    pthread_mutex_lock(&g_stats_lock);
    g_stats.bytes_scanned += bytes; // NORACE
    if (nmatches > 0) {
        g_stats.files_matched++; // NORACE
        g_stats.matches += (unsigned long long)nmatches; // NORACE
    }
    pthread_mutex_unlock(&g_stats_lock);
}

void stats_record_binary(void)
{
    pthread_mutex_lock(&g_stats_lock);
    g_stats.files_binary++; // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

void stats_record_error(void)
{
    pthread_mutex_lock(&g_stats_lock);
    g_stats.errors++; // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

void stats_note_size(const char *path, long long size)
{
    /* Fast path: most files are not the biggest one, so skip the lock. */
    if (size <= g_stats.largest_size) // RACE(largest): checked outside the lock
        return;

    pthread_mutex_lock(&g_stats_lock);
    g_stats.largest_size = size; // RACE(largest): acts on a stale check
    snprintf(g_stats.largest_path, sizeof g_stats.largest_path, "%s", path); // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

void stats_snapshot(struct scan_stats *out)
{
    pthread_mutex_lock(&g_stats_lock);
    out->files_scanned = g_stats.files_scanned; // RACE(files_scanned)
    out->files_matched = g_stats.files_matched; // NORACE
    out->files_binary = g_stats.files_binary; // NORACE
    out->errors = g_stats.errors; // NORACE
    out->bytes_scanned = g_stats.bytes_scanned; // NORACE
    out->matches = g_stats.matches; // NORACE
    out->largest_size = g_stats.largest_size; // NORACE: read under g_stats_lock, as the write
    memcpy(out->largest_path, g_stats.largest_path, sizeof out->largest_path); // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

/* ------------------------------------------------------------------------ */
/* Progress reporter                                                        */
/* ------------------------------------------------------------------------ */

struct reporter {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop;                   /* guarded by lock */
    unsigned interval_ms;       /* set before the thread starts */
    struct work_queue *queue;   /* set before the thread starts */
    FILE *out;                  /* set before the thread starts */
    struct timespec started;    /* set before the thread starts */
    pthread_t thread;
    struct scan_stats final;    /* written by the reporter just before it exits */
};

static struct reporter g_rep = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) +
           (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void add_ms(struct timespec *ts, unsigned ms)
{
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static void report_progress(struct reporter *r)
{
    struct scan_stats s;
    const char *phase;
    size_t depth;
    double secs;

    depth = queue_depth(r->queue);
    stats_snapshot(&s);
    phase = queue_closed(r->queue) ? "draining" : "walking";
    secs = seconds_since(&r->started);

    fprintf(r->out,
            "progress: %7.2fs  %lu files  %.1f MiB  %llu matches in %lu files"
            "  queue %zu/%zu  (%s)\n",
            secs, s.files_scanned, (double)s.bytes_scanned / (1024.0 * 1024.0),
            s.matches, s.files_matched, depth, queue_capacity(r->queue), phase);
    fflush(r->out);
}

/* Wait until the next tick or until told to stop; returns the stop flag. */
static int wait_tick(struct reporter *r, const struct timespec *deadline)
{
    int stop, rc;

    pthread_mutex_lock(&r->lock);
    while (!r->stop) { // NORACE
        if (r->interval_ms == 0) {
            pthread_cond_wait(&r->wake, &r->lock);
            continue;
        }
        rc = pthread_cond_timedwait(&r->wake, &r->lock, deadline);
        if (rc == ETIMEDOUT)
            break;
    }
    stop = r->stop; // NORACE
    pthread_mutex_unlock(&r->lock);
    return stop;
}

static void *reporter_main(void *arg)
{
    struct reporter *r = arg;
    struct timespec deadline, now;

    clock_gettime(CLOCK_REALTIME, &deadline);
    for (;;) {
        add_ms(&deadline, r->interval_ms);
        if (wait_tick(r, &deadline))
            break;
        report_progress(r);

        /* If printing fell behind, do not try to catch up with a burst. */
        clock_gettime(CLOCK_REALTIME, &now);
        if (now.tv_sec > deadline.tv_sec ||
            (now.tv_sec == deadline.tv_sec && now.tv_nsec > deadline.tv_nsec))
            deadline = now;
    }

    stats_snapshot(&r->final);
    return NULL;
}

int reporter_start(struct work_queue *q, unsigned interval_ms, FILE *out)
{
    int rc;

    g_rep.queue = q;
    g_rep.interval_ms = interval_ms;
    g_rep.out = out != NULL ? out : stderr;
    clock_gettime(CLOCK_MONOTONIC, &g_rep.started);

    rc = pthread_create(&g_rep.thread, NULL, reporter_main, &g_rep);
    if (rc != 0)
        log_error("cannot start the progress reporter: %s", strerror(rc));
    return rc;
}

void reporter_stop(struct scan_stats *final)
{
    int rc;

    pthread_mutex_lock(&g_rep.lock);
    g_rep.stop = 1; // NORACE
    pthread_cond_signal(&g_rep.wake);
    pthread_mutex_unlock(&g_rep.lock);

    rc = pthread_join(g_rep.thread, NULL);
    if (rc != 0)
        die("cannot join the progress reporter: %s", strerror(rc));
    *final = g_rep.final; // NORACE: the reporter has been joined
}
