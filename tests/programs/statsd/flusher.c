/*
 * flusher.c - periodic report writer.
 *
 * Every flush interval the flusher takes a snapshot of the registry (which
 * resets counters and timers), formats it in the graphite plaintext format
 * ("<path> <value> <timestamp>") and writes it to the configured output.
 * It sleeps on flush_cond so that shutdown can wake it early; a final
 * report is written before the thread exits.
 */
#include "flusher.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "log.h"
#include "receiver.h"
#include "registry.h"

volatile sig_atomic_t dump_requested;

struct flusher_state {
    FILE *out;
    int owns_out;
    struct timespec last_flush;     /* CLOCK_MONOTONIC */
    struct flusher_totals totals;   /* written by the flusher thread only */
};

/* Reloadable settings, copied under config_lock once per flush. */
struct report_settings {
    double percentile;
    char prefix[CONFIG_PREFIX_MAX];
    long stale_after_s;
};

static pthread_t flusher_thread;
static struct flusher_state flusher;

static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flush_cond = PTHREAD_COND_INITIALIZER;
static int flush_stop;

static void settings_load(struct report_settings *rs)
{
    pthread_mutex_lock(&config_lock);
    rs->percentile = g_config.percentile; // NORACE
    memcpy(rs->prefix, g_config.prefix, sizeof rs->prefix); // NORACE
    rs->stale_after_s = g_config.stale_after_s; // NORACE
    pthread_mutex_unlock(&config_lock);
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void deadline_after(struct timespec *ts, long ms)
{
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* "upper_90", "upper_99_9": graphite does not like dots inside a key. */
static void percentile_suffix(char *buf, size_t len, double pct)
{
    char *dot;

    snprintf(buf, len, "%g", pct);
    while ((dot = strchr(buf, '.')) != NULL)
        *dot = '_';
}

static void emit_timer(FILE *out, const struct report_settings *rs,
                       struct metric_snapshot *s, time_t now, double elapsed)
{
    struct timer_snapshot *t = &s->timer;
    const char *p = rs->prefix;
    char pct[32];
    int i;

    fprintf(out, "%s.timers.%s.count %.17g %lld\n", p, s->name, t->count,
            (long long)now);
    fprintf(out, "%s.timers.%s.count_ps %.6g %lld\n", p, s->name,
            t->count / elapsed, (long long)now);
    fprintf(out, "%s.timers.%s.sum %.17g %lld\n", p, s->name, t->sum,
            (long long)now);
    fprintf(out, "%s.timers.%s.lower %.17g %lld\n", p, s->name, t->min,
            (long long)now);
    fprintf(out, "%s.timers.%s.upper %.17g %lld\n", p, s->name, t->max,
            (long long)now);

    if (t->nsamples > 0) {
        size_t n = t->nsamples, k, j;
        double sum = 0, rank;

        qsort(t->samples, n, sizeof *t->samples, compare_doubles);
        fprintf(out, "%s.timers.%s.mean %.6g %lld\n", p, s->name,
                t->sum / (t->count > 0 ? t->count : 1), (long long)now);
        fprintf(out, "%s.timers.%s.median %.6g %lld\n", p, s->name,
                n % 2 ? t->samples[n / 2]
                      : (t->samples[n / 2 - 1] + t->samples[n / 2]) / 2,
                (long long)now);

        /* Samples at or below the configured percentile (rounded up). */
        rank = rs->percentile / 100.0 * (double)n;
        k = (size_t)rank;
        if ((double)k < rank)
            k++;
        if (k > n)
            k = n;
        if (k == 0)
            k = 1;
        for (j = 0; j < k; j++)
            sum += t->samples[j];
        percentile_suffix(pct, sizeof pct, rs->percentile);
        fprintf(out, "%s.timers.%s.upper_%s %.17g %lld\n", p, s->name, pct,
                t->samples[k - 1], (long long)now);
        fprintf(out, "%s.timers.%s.mean_%s %.6g %lld\n", p, s->name, pct,
                sum / (double)k, (long long)now);
    }

    for (i = 0; i < HIST_BUCKETS; i++) {
        double bound = registry_hist_bound(i);

        if (t->hist[i] == 0)
            continue;
        if (bound < 0)
            fprintf(out, "%s.timers.%s.histogram.bin_inf %lu %lld\n", p,
                    s->name, t->hist[i], (long long)now);
        else
            fprintf(out, "%s.timers.%s.histogram.bin_%g %lu %lld\n", p,
                    s->name, bound, t->hist[i], (long long)now);
    }
}

static int is_stale(const struct report_settings *rs,
                    const struct metric_snapshot *s, time_t now)
{
    return rs->stale_after_s > 0 && s->updates == 0 &&
           now - s->last_seen > rs->stale_after_s;
}

static void emit_internal(FILE *out, const char *p, time_t now)
{
    struct stats_view sv;

    stats_snapshot(&sv);
    fprintf(out, "%s.statsd.packets_received %lu %lld\n", p,
            sv.packets_received, (long long)now);
    fprintf(out, "%s.statsd.bytes_received %lu %lld\n", p, sv.bytes_received,
            (long long)now);
    fprintf(out, "%s.statsd.lines_parsed %lu %lld\n", p, sv.lines_parsed,
            (long long)now);
    fprintf(out, "%s.statsd.bad_lines %lu %lld\n", p, sv.bad_lines,
            (long long)now);
    fprintf(out, "%s.statsd.packets_dropped %lu %lld\n", p,
            sv.packets_dropped, (long long)now);
    fprintf(out, "%s.statsd.metrics %zu %lld\n", p, registry_size(),
            (long long)now);
}

static void flush_once(FILE *out, unsigned long seq, int final)
{
    struct report_settings rs;
    struct metric_snapshot *snap = NULL;
    struct timespec mono;
    size_t n = 0, i, shown = 0;
    double elapsed, counted = 0, timed = 0;
    time_t now;

    settings_load(&rs);
    now = time(NULL);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    elapsed = seconds_between(&flusher.last_flush, &mono);
    if (elapsed <= 0)
        elapsed = 1e-3;
    flusher.last_flush = mono;

    if (registry_snapshot(&snap, &n) != 0) {
        log_msg(LVL_ERROR, "flush %lu: out of memory, interval lost", seq);
        return;
    }

    fprintf(out, "# flush %lu%s: %zu metrics over %.3f s\n", seq,
            final ? " (final)" : "", n, elapsed);
    for (i = 0; i < n; i++) {
        struct metric_snapshot *s = &snap[i];

        if (is_stale(&rs, s, now))
            continue;
        shown++;
        switch (s->type) {
        case METRIC_COUNTER:
            fprintf(out, "%s.counters.%s.count %.17g %lld\n", rs.prefix,
                    s->name, s->counter, (long long)now);
            fprintf(out, "%s.counters.%s.rate %.6g %lld\n", rs.prefix,
                    s->name, s->counter / elapsed, (long long)now);
            counted += s->counter;
            break;
        case METRIC_GAUGE:
            fprintf(out, "%s.gauges.%s %.17g %lld\n", rs.prefix, s->name,
                    s->gauge, (long long)now);
            break;
        case METRIC_TIMER:
            if (s->timer.count > 0)
                emit_timer(out, &rs, s, now, elapsed);
            timed += s->timer.count;
            break;
        }
    }
    emit_internal(out, rs.prefix, now);
    if (fflush(out) != 0)
        log_errno(LVL_WARN, errno, "flush %lu: write failed", seq);
    registry_free_snapshot(snap, n);

    flusher.totals.flushes++; // NORACE needs=joins
    flusher.totals.counter_total += counted; // NORACE needs=joins
    flusher.totals.timer_count_total += timed; // NORACE needs=joins
    log_msg(LVL_DEBUG, "flush %lu: %zu of %zu metrics written", seq, shown, n);
}

static void write_dump(FILE *out)
{
    struct stats_view sv;

    stats_snapshot(&sv);
    fprintf(out, "# SIGUSR1 dump: %lu packets, %lu lines, %lu bad, "
            "%lu dropped\n", sv.packets_received, sv.lines_parsed,
            sv.bad_lines, sv.packets_dropped);
    registry_dump_counters(out);
    fflush(out);
    flusher.totals.dumps++; // NORACE needs=joins
}

static void *flusher_main(void *arg)
{
    unsigned long seq = 0;
    int stop = 0;

    (void)arg;
    while (!stop) {
        const long interval_ms = g_config.flush_interval_ms; // RACE(interval)
        struct timespec deadline;

        deadline_after(&deadline, interval_ms);
        pthread_mutex_lock(&flush_lock);
        while (!flush_stop) { // NORACE
            int rc = pthread_cond_timedwait(&flush_cond, &flush_lock, &deadline);

            if (rc == ETIMEDOUT)
                break;
            if (rc != 0 && rc != EINTR) {
                log_errno(LVL_ERROR, rc, "flusher: pthread_cond_timedwait");
                break;
            }
        }
        stop = flush_stop; // NORACE
        pthread_mutex_unlock(&flush_lock);

        if (dump_requested) { // RACE(dump)
            dump_requested = 0; // RACE(dump)
            write_dump(flusher.out);
        }
        flush_once(flusher.out, ++seq, stop);
    }
    log_msg(LVL_DEBUG, "flusher: exiting after %lu flushes", seq);
    return NULL;
}

int flusher_start(void)
{
    const char *path = g_config.output_path;
    int rc;

    if (strcmp(path, "-") == 0) {
        flusher.out = stdout;
        flusher.owns_out = 0;
    } else {
        flusher.out = fopen(path, "w");
        if (flusher.out == NULL) {
            log_errno(LVL_ERROR, errno, "cannot open report file %s", path);
            return -1;
        }
        flusher.owns_out = 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &flusher.last_flush);

    rc = pthread_create(&flusher_thread, NULL, flusher_main, NULL);
    if (rc != 0) {
        log_errno(LVL_ERROR, rc, "cannot start the flusher thread");
        if (flusher.owns_out)
            fclose(flusher.out);
        flusher.out = NULL;
        return -1;
    }
    return 0;
}

void flusher_stop(void)
{
    int rc;

    pthread_mutex_lock(&flush_lock);
    flush_stop = 1; // NORACE
    pthread_cond_signal(&flush_cond);
    pthread_mutex_unlock(&flush_lock);

    rc = pthread_join(flusher_thread, NULL);
    if (rc != 0)
        log_errno(LVL_ERROR, rc, "pthread_join(flusher)");
    if (flusher.owns_out && fclose(flusher.out) != 0)
        log_errno(LVL_WARN, errno, "closing the report file");
    flusher.out = NULL;
}

void flusher_get_totals(struct flusher_totals *out)
{
    out->flushes = flusher.totals.flushes; // NORACE needs=joins
    out->dumps = flusher.totals.dumps; // NORACE needs=joins
    out->counter_total = flusher.totals.counter_total; // NORACE needs=joins
    out->timer_count_total = flusher.totals.timer_count_total; // NORACE needs=joins
}
