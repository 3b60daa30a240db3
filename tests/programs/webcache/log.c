/*
 * log.c - diagnostics and the access log writer.
 *
 * Diagnostics go to stderr, one line per message, serialised by
 * g_diag_lock so that lines of different threads never interleave.
 *
 * The access log is a classic producer/consumer buffer: workers copy a
 * finished log line into g_alog.buf under g_alog.lock and signal the
 * logger thread, which swaps the contents out under the lock and writes
 * them to the file without holding it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

#define ACCESSLOG_BUFSZ   (64 * 1024)

static pthread_mutex_t g_diag_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_diag_level = DIAG_INFO;          /* set before threads start */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t  wake;        /* signalled when data arrives or on stop */
    char            buf[ACCESSLOG_BUFSZ];
    size_t          len;
    int             stopping;
    unsigned long   dropped;     /* lines lost because the buffer was full */
    int             fd;          /* set by accesslog_open(), then read-only */
} g_alog = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .fd   = -1,
};

static const char *level_name(int level)
{
    switch (level) {
    case DIAG_ERR:   return "error";
    case DIAG_WARN:  return "warning";
    case DIAG_INFO:  return "info";
    default:         return "debug";
    }
}

void diag_set_level(int level)
{
    if (level < DIAG_ERR)
        level = DIAG_ERR;
    if (level > DIAG_DEBUG)
        level = DIAG_DEBUG;
    g_diag_level = level;
}

void diag(int level, const char *fmt, ...)
{
    char stamp[32];
    struct tm tm;
    time_t now;
    va_list ap;

    if (level > g_diag_level)
        return;

    now = time(NULL);
    if (localtime_r(&now, &tm) == NULL ||
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm) == 0)
        snprintf(stamp, sizeof stamp, "%ld", (long)now);

    pthread_mutex_lock(&g_diag_lock);
    fprintf(stderr, "%s webcache %s: ", stamp, level_name(level));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    pthread_mutex_unlock(&g_diag_lock);
}

const char *errstr(int err, char *buf, size_t len)
{
    if (strerror_r(err, buf, len) != 0)
        snprintf(buf, len, "error %d", err);
    return buf;
}

/* ------------------------------------------------------------------ */

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int accesslog_open(const char *path)
{
    char ebuf[128];
    int fd;

    if (path == NULL || path[0] == '\0')
        return 0;                       /* access logging disabled */

    fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) {
        diag(DIAG_ERR, "cannot open access log %s: %s", path,
             errstr(errno, ebuf, sizeof ebuf));
        return -1;
    }
    g_alog.fd = fd;
    return 0;
}

void accesslog_append(const char *line, size_t len)
{
    if (g_alog.fd < 0)
        return;

    pthread_mutex_lock(&g_alog.lock);
    if (g_alog.len + len > sizeof g_alog.buf) { // NORACE
        g_alog.dropped++; // NORACE
    } else {
        memcpy(g_alog.buf + g_alog.len, line, len); // NORACE
        g_alog.len += len; // NORACE
        pthread_cond_signal(&g_alog.wake);
    }
    pthread_mutex_unlock(&g_alog.lock);
}

void *accesslog_thread(void *arg)
{
    char ebuf[128];
    char *out;
    size_t n;
    int stop;
    int failed = 0;

    (void)arg;
    out = malloc(ACCESSLOG_BUFSZ);
    if (out == NULL) {
        diag(DIAG_ERR, "logger: out of memory, access log disabled");
        return NULL;
    }

    for (;;) {
        pthread_mutex_lock(&g_alog.lock);
        while (g_alog.len == 0 && !g_alog.stopping) // NORACE
            pthread_cond_wait(&g_alog.wake, &g_alog.lock);
        n = g_alog.len; // NORACE
        memcpy(out, g_alog.buf, n); // NORACE
        g_alog.len = 0; // NORACE
        stop = g_alog.stopping; // NORACE
        pthread_mutex_unlock(&g_alog.lock);

        if (n > 0 && !failed && write_all(g_alog.fd, out, n) != 0) {
            diag(DIAG_ERR, "logger: write failed: %s",
                 errstr(errno, ebuf, sizeof ebuf));
            failed = 1;                 /* report once, keep draining */
        }
        if (stop && n == 0)
            break;
    }
    free(out);
    return NULL;
}

void accesslog_stop(void)
{
    pthread_mutex_lock(&g_alog.lock);
    g_alog.stopping = 1; // NORACE
    pthread_cond_signal(&g_alog.wake);
    pthread_mutex_unlock(&g_alog.lock);
}

void accesslog_close(void)
{
    if (g_alog.fd >= 0)
        close(g_alog.fd);
}

unsigned long accesslog_dropped(void)
{
    unsigned long d;

    pthread_mutex_lock(&g_alog.lock);
    d = g_alog.dropped; // NORACE
    pthread_mutex_unlock(&g_alog.lock);
    return d;
}
