/*
 * log.h - diagnostics for pscan.
 */
#ifndef PSCAN_LOG_H
#define PSCAN_LOG_H

#include <signal.h>
#include <stdio.h>

enum log_level {
    LOG_ERROR = 0,
    LOG_WARN  = 1,
    LOG_INFO  = 2,
    LOG_DEBUG = 3
};

/*
 * Set the program name, the stream diagnostics go to (NULL = stderr) and
 * the verbosity (number of -v flags).  Call once, before starting threads.
 */
void log_init(const char *prog, FILE *stream, int verbosity);

/* The stream diagnostics currently go to. */
FILE *log_stream(void);

void log_msg(enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Unconditional "trace:" message; callers check g_trace_on first. */
void log_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print an error and exit with status 2. */
void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

/*
 * Per-file / per-match tracing, toggled at run time with SIGUSR1
 * (see the handler in main.c).
 */
extern volatile sig_atomic_t g_trace_on;

#endif /* PSCAN_LOG_H */
