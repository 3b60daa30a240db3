/*
 * util.c - logging, clocks, random numbers and pipeline statistics.
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ---- logging ---------------------------------------------------------- */

int log_level = LOG_INFO;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *log_progname = "pipeline";
static uint64_t log_t0;
static unsigned long log_lines;

static const char *const level_names[] = { "error", "warning", "info", "debug" };

void log_init(const char *progname, int level)
{
    const char *slash;

    for (slash = progname; *progname != '\0'; progname++)
        if (*progname == '/')
            slash = progname + 1;
    log_progname = slash;
    log_level = level;
    log_t0 = now_ns();
}

static void log_emit(int level, const char *fmt, va_list ap)
{
    char msg[1024];
    uint64_t t = now_ns() - log_t0;             // NORACE needs=sharing: set before the threads start

    vsnprintf(msg, sizeof msg, fmt, ap);

    pthread_mutex_lock(&log_lock);
    fprintf(stderr, "%s[%4lu.%03lu] %s: %s\n",
            log_progname,                       // NORACE needs=sharing: set before the threads start
            (unsigned long)(t / 1000000000u),
            (unsigned long)(t / 1000000u % 1000u),
            level_names[level], msg);
    log_lines++;                                // NORACE: log_lock
    pthread_mutex_unlock(&log_lock);
}

void log_msg(int level, const char *fmt, ...)
{
    va_list ap;

    if (level > log_level)                      // NORACE needs=sharing: set before the threads start
        return;
    va_start(ap, fmt);
    log_emit(level, fmt, ap);
    va_end(ap);
}

void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_emit(LOG_ERROR, fmt, ap);
    va_end(ap);
    exit(EXIT_FAILURE);
}

/* ---- time and randomness ---------------------------------------------- */

uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void sleep_ns(uint64_t ns)
{
    struct timespec req, rem;

    req.tv_sec = (time_t)(ns / 1000000000u);
    req.tv_nsec = (long)(ns % 1000000000u);
    while (nanosleep(&req, &rem) != 0)
        req = rem;
}

uint64_t rng_next(uint64_t *state)
{
    uint64_t x = *state;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dULL;
}

/* ---- statistics --------------------------------------------------------- */

struct pipeline_stats stats;
pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

void stats_note_read(size_t bytes, int truncated)
{
    pthread_mutex_lock(&stats_lock);
    stats.lines_read++;                         // NORACE needs=joins,field: stats_lock; main reads after joining
    stats.bytes_read += bytes;                  // NORACE needs=joins,field: stats_lock; main reads after joining
    if (truncated)
        stats.lines_truncated++;                // NORACE needs=joins,field: stats_lock; main reads after joining
    pthread_mutex_unlock(&stats_lock);
}

void stats_note_wait(uint64_t wait_ns, size_t backlog)
{
    pthread_mutex_lock(&stats_lock);
    stats.wait_total_ns += wait_ns;             // NORACE needs=joins,field: stats_lock; main reads after joining
    if (wait_ns > stats.wait_max_ns)            // NORACE needs=joins,field: stats_lock; main reads after joining
        stats.wait_max_ns = wait_ns;            // NORACE needs=joins,field: stats_lock; main reads after joining
    if (backlog > stats.backlog_max)            // NORACE needs=joins,field: stats_lock; main reads after joining
        stats.backlog_max = backlog;            // NORACE needs=joins,field: stats_lock; main reads after joining
    pthread_mutex_unlock(&stats_lock);
}

void stats_note_parsed(const struct parse_counts *pc, int duplicate)
{
    pthread_mutex_lock(&stats_lock);
    stats.records_parsed++;                     // NORACE needs=joins,field: stats_lock; main reads after joining
    if (duplicate)
        stats.duplicates++;                     // NORACE needs=joins,field: stats_lock; main reads after joining
    stats.tokens += pc->tokens;                 // NORACE needs=joins,field: stats_lock; main reads after joining
    stats.words_dropped += pc->dropped;         // NORACE needs=joins,field: stats_lock; main reads after joining
    stats.batches += pc->batches;               // NORACE needs=joins,field: stats_lock; main reads after joining
    pthread_mutex_unlock(&stats_lock);
}

void stats_note_counted(size_t words)
{
    pthread_mutex_lock(&stats_lock);
    stats.words_counted += words;               // NORACE needs=joins,field: stats_lock; main reads after joining
    pthread_mutex_unlock(&stats_lock);
}

void stats_view(struct stats_view *sv)
{
    pthread_mutex_lock(&stats_lock);
    sv->lines_read = stats.lines_read;          // NORACE needs=field: stats_lock; main reads after joining
    sv->records_parsed = stats.records_parsed;  // NORACE needs=field: stats_lock; main reads after joining
    sv->words_counted = stats.words_counted;    // NORACE needs=field: stats_lock; main reads after joining
    sv->backlog_max = stats.backlog_max;        // NORACE needs=field: stats_lock; main reads after joining
    sv->in_flight = stats.records_in_flight;    // RACE(inflight): reader/parser update it without stats_lock
    pthread_mutex_unlock(&stats_lock);
}
