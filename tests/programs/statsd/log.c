/*
 * log.c - minimal thread-safe logging to stderr.
 *
 * The threshold and identity are configured once by main() before any
 * thread exists; afterwards they are only read.  Output lines are
 * serialised by log_lock so that messages from different threads never
 * interleave, and each line carries a sequence number.
 */
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *log_ident = "statsd";
static enum log_level log_threshold = LVL_INFO;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long log_seq;

static const char *const level_names[] = {
    [LVL_ERROR] = "error",
    [LVL_WARN] = "warn",
    [LVL_INFO] = "info",
    [LVL_DEBUG] = "debug",
};

void log_init(const char *ident, enum log_level threshold)
{
    log_ident = ident;
    log_threshold = threshold;
}

int log_enabled(enum log_level level)
{
    return level <= log_threshold;
}

int log_level_from_name(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof level_names / sizeof level_names[0]; i++) {
        if (strcmp(name, level_names[i]) == 0)
            return (int)i;
    }
    return -1;
}

static void log_emit(enum log_level level, const char *suffix,
                     const char *fmt, va_list ap)
{
    struct timespec now;
    struct tm tm;
    char stamp[32];
    char msg[512];
    unsigned long seq;

    clock_gettime(CLOCK_REALTIME, &now);
    if (localtime_r(&now.tv_sec, &tm) == NULL ||
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm) == 0)
        snprintf(stamp, sizeof stamp, "%lld", (long long)now.tv_sec);
    vsnprintf(msg, sizeof msg, fmt, ap);

    pthread_mutex_lock(&log_lock);
    seq = ++log_seq; // NORACE
    fprintf(stderr, "%s.%03ld %s[%lu] %s: %s%s%s\n", stamp,
            now.tv_nsec / 1000000L, log_ident, seq, level_names[level], msg,
            suffix ? ": " : "", suffix ? suffix : "");
    pthread_mutex_unlock(&log_lock);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
    va_list ap;

    if (!log_enabled(level))
        return;
    va_start(ap, fmt);
    log_emit(level, NULL, fmt, ap);
    va_end(ap);
}

void log_errno(enum log_level level, int err, const char *fmt, ...)
{
    char errbuf[128];
    va_list ap;

    if (!log_enabled(level))
        return;
    if (strerror_r(err, errbuf, sizeof errbuf) != 0)
        snprintf(errbuf, sizeof errbuf, "error %d", err);
    va_start(ap, fmt);
    log_emit(level, errbuf, fmt, ap);
    va_end(ap);
}
