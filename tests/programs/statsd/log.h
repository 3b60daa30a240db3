/*
 * log.h - minimal thread-safe logging to stderr.
 */
#ifndef STATSD_LOG_H
#define STATSD_LOG_H

enum log_level {
    LVL_ERROR = 0,
    LVL_WARN,
    LVL_INFO,
    LVL_DEBUG
};

/* Must be called before any thread is started. */
void log_init(const char *ident, enum log_level threshold);

/* Non-zero if messages of `level` would be written. */
int log_enabled(enum log_level level);

void log_msg(enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Like log_msg, with ": <strerror(err)>" appended. */
void log_errno(enum log_level level, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Parses "error", "warn", "info" or "debug"; returns -1 if unknown. */
int log_level_from_name(const char *name);

#endif /* STATSD_LOG_H */
