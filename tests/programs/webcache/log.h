/*
 * log.h - diagnostics on stderr and the buffered access log.
 */
#ifndef WEBCACHE_LOG_H
#define WEBCACHE_LOG_H

#include <stddef.h>

enum diag_level {
    DIAG_ERR   = 0,
    DIAG_WARN  = 1,
    DIAG_INFO  = 2,
    DIAG_DEBUG = 3
};

/* Diagnostics.  diag_set_level() must be called before threads start. */
void diag_set_level(int level);
void diag(int level, const char *fmt, ...);
const char *errstr(int err, char *buf, size_t len);

/*
 * Access log.  Request threads append formatted lines to an in-memory
 * buffer; a dedicated logger thread writes the buffer to the log file so
 * that workers never block on disk I/O.
 */
int  accesslog_open(const char *path);      /* before threads start */
void *accesslog_thread(void *arg);          /* body of the logger thread */
void accesslog_append(const char *line, size_t len);
void accesslog_stop(void);                  /* ask the logger to drain and exit */
void accesslog_close(void);                 /* after the logger was joined */
unsigned long accesslog_dropped(void);

#endif /* WEBCACHE_LOG_H */
