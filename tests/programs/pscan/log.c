/*
 * log.c - diagnostics for pscan.
 *
 * Every message is formatted into a local buffer and written with a single
 * stdio call, so that lines coming from different worker threads do not
 * get interleaved half-way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

#define LOG_LINE_MAX 1024

/* Configured once by log_init() before any thread exists; read-only after. */
static const char *g_prog = "pscan";
static FILE *g_stream;
static int g_level = LOG_WARN;
static struct timespec g_t0;

volatile sig_atomic_t g_trace_on;

static const char *const level_names[] = {
    [LOG_ERROR] = "error",
    [LOG_WARN]  = "warning",
    [LOG_INFO]  = "info",
    [LOG_DEBUG] = "debug",
};

void log_init(const char *prog, FILE *stream, int verbosity)
{
    const char *slash;

    if (prog != NULL) {
        slash = strrchr(prog, '/');
        g_prog = slash != NULL ? slash + 1 : prog;
    }
    g_stream = stream;
    g_level = LOG_WARN + verbosity;
    if (g_level > LOG_DEBUG)
        g_level = LOG_DEBUG;
    clock_gettime(CLOCK_MONOTONIC, &g_t0);
}

FILE *log_stream(void)
{
    return g_stream != NULL ? g_stream : stderr;
}

static double elapsed(void)
{
    struct timespec now;

    if (g_t0.tv_sec == 0 && g_t0.tv_nsec == 0)
        return 0.0;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - g_t0.tv_sec) +
           (double)(now.tv_nsec - g_t0.tv_nsec) / 1e9;
}

static void vlog(const char *tag, const char *fmt, va_list ap)
{
    char line[LOG_LINE_MAX];
    int off;

    off = snprintf(line, sizeof line, "%s: [%7.3f] %s: ", g_prog, elapsed(), tag);
    if (off < 0)
        return;
    if ((size_t)off < sizeof line)
        vsnprintf(line + off, sizeof line - (size_t)off, fmt, ap);
    /* Make sure there is room for the newline even if we truncated. */
    off = (int)strlen(line);
    if ((size_t)off >= sizeof line - 1)
        off = (int)sizeof line - 2;
    line[off] = '\n';
    line[off + 1] = '\0';
    fputs(line, log_stream());
}

void log_msg(enum log_level level, const char *fmt, ...)
{
    va_list ap;

    if ((int)level > g_level)
        return;
    va_start(ap, fmt);
    vlog(level_names[level], fmt, ap);
    va_end(ap);
}

void log_trace(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog("trace", fmt, ap);
    va_end(ap);
}

void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog("fatal", fmt, ap);
    va_end(ap);
    fflush(NULL);
    exit(2);
}
