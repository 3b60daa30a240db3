/*
 * log.h - serialized diagnostics for chunkget.
 *
 * Every line that chunkget prints once threads are running goes through
 * this module, so that messages from different threads never interleave
 * and the progress bar can be cleared before a message is written.
 */
#ifndef CHUNKGET_LOG_H
#define CHUNKGET_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_ERROR = 0,
	LOG_WARN  = 1,
	LOG_INFO  = 2,
	LOG_DEBUG = 3,
	LOG_NLEVELS
};

/* Must be called once from main() before any thread is started. */
void log_init(const char *progname, enum log_level level);

void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like log_msg(LOG_ERROR, ...), with ": strerror(err)" appended. */
void log_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Replace the progress line at the bottom of the terminal. */
void log_progress(const char *line);

/* Terminate the progress line (if one is shown) with a newline. */
void log_progress_done(void);

/* Number of messages logged so far at the given level. */
unsigned long log_count(enum log_level level);

/* Seconds since log_init(), from the monotonic clock. */
double log_elapsed(void);

#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif /* CHUNKGET_LOG_H */
