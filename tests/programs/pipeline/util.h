/*
 * util.h - logging, clocks, random numbers and pipeline statistics.
 */
#ifndef UTIL_H
#define UTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* ---- logging ---------------------------------------------------------- */

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Set by log_init() before any thread starts; read-only afterwards. */
extern int log_level;

void log_init(const char *progname, int level);
void log_msg(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#define log_error(...)  log_msg(LOG_ERROR, __VA_ARGS__)
#define log_warn(...)   log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...)   log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...)  log_msg(LOG_DEBUG, __VA_ARGS__)

/* ---- time and randomness ---------------------------------------------- */

uint64_t now_ns(void);                  /* CLOCK_MONOTONIC */
void sleep_ns(uint64_t ns);
uint64_t rng_next(uint64_t *state);     /* xorshift64*, state must be != 0 */

/* ---- statistics --------------------------------------------------------- */

/*
 * Pipeline-wide counters.  Every field is protected by stats_lock, except
 * the records_in_flight gauge, which the reader and the parser update on
 * their hot paths (see reader.c / parser.c).
 */
struct pipeline_stats {
    unsigned long   lines_read;
    unsigned long   bytes_read;
    unsigned long   lines_truncated;
    unsigned long   records_parsed;
    unsigned long   duplicates;
    unsigned long   tokens;
    unsigned long   words_dropped;
    unsigned long   words_counted;
    unsigned long   batches;
    uint64_t        wait_total_ns;      /* time records spent in q_in */
    uint64_t        wait_max_ns;
    size_t          backlog_max;        /* deepest q_in seen by the parser */
    long            records_in_flight;  /* queued or being parsed */
};

extern struct pipeline_stats stats;
extern pthread_mutex_t stats_lock;

/* What the parser counted for one record. */
struct parse_counts {
    unsigned long   tokens;
    unsigned long   dropped;
    unsigned long   batches;
};

void stats_note_read(size_t bytes, int truncated);
void stats_note_wait(uint64_t wait_ns, size_t backlog);
void stats_note_parsed(const struct parse_counts *pc, int duplicate);
void stats_note_counted(size_t words);

/* A consistent copy for progress reports. */
struct stats_view {
    unsigned long   lines_read;
    unsigned long   records_parsed;
    unsigned long   words_counted;
    size_t          backlog_max;
    long            in_flight;
};

void stats_view(struct stats_view *sv);

#endif /* UTIL_H */
