/*
 * scanner.c - the pattern matcher and the scanner (worker) threads.
 *
 * Each worker pops a path from the work queue, reads the file in large
 * chunks with read(2), splits the chunks into lines and runs the compiled
 * pattern over every line.  Matching lines go to the shared result list
 * (results.c), per-file totals to the shared statistics (stats.c).
 *
 * A file whose first chunk contains a NUL byte is treated as binary and
 * skipped.  Lines longer than the read buffer are scanned in buffer-sized
 * pieces, so a match straddling such a piece boundary is not reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "log.h"
#include "pscan.h"
#include "queue.h"
#include "results.h"
#include "scanner.h"
#include "stats.h"

#define SCAN_BUF_SIZE (64 * 1024)

/* Compiled by scanner_init() in the main thread before the workers start. */
static struct matcher g_matcher;

/* ------------------------------------------------------------------------ */
/* Matcher                                                                  */
/* ------------------------------------------------------------------------ */

static inline unsigned char fold(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

static inline int is_word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

int matcher_compile(struct matcher *m, const char *pattern, int icase,
                    int whole_word)
{
    size_t i, len = strlen(pattern);

    if (len == 0 || len > MATCHER_MAX_PATTERN) {
        errno = EINVAL;
        return -1;
    }
    m->len = len;
    m->icase = icase;
    m->whole_word = whole_word;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)pattern[i];
        m->pat[i] = icase ? fold(c) : c;
    }
    for (i = 0; i < 256; i++)
        m->skip[i] = len;
    for (i = 0; i + 1 < len; i++)
        m->skip[m->pat[i]] = len - 1 - i;
    return 0;
}

static int at_word_boundary(const unsigned char *t, size_t n, size_t pos,
                            size_t len)
{
    if (pos > 0 && is_word_char(t[pos - 1]))
        return 0;
    if (pos + len < n && is_word_char(t[pos + len]))
        return 0;
    return 1;
}

const char *matcher_find(const struct matcher *m, const char *text, size_t n)
{
    const unsigned char *t = (const unsigned char *)text;
    size_t len = m->len; // NORACE: the matcher is compiled before the workers start
    size_t pos = 0;

    while (len <= n && pos <= n - len) {
        unsigned char last = t[pos + len - 1];
        size_t k = len;

        if (m->icase)
            last = fold(last);
        while (k > 0) {
            unsigned char c = t[pos + k - 1];

            if (m->icase)
                c = fold(c);
            if (c != m->pat[k - 1]) // NORACE
                break;
            k--;
        }
        if (k == 0) {
            if (!m->whole_word || at_word_boundary(t, n, pos, len))
                return text + pos;
            pos++;
            continue;
        }
        pos += m->skip[last]; // NORACE
    }
    return NULL;
}

int scanner_init(void)
{
    if (matcher_compile(&g_matcher, g_opts.pattern, g_opts.ignore_case,
                        g_opts.whole_word) < 0) {
        log_error("invalid pattern (empty or longer than %d bytes)",
                  MATCHER_MAX_PATTERN);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Line reader                                                              */
/* ------------------------------------------------------------------------ */

struct line_reader {
    int fd;
    char *buf;
    size_t cap;
    size_t start;               /* unread data is buf[start, end) */
    size_t end;
    int eof;
    int first_read_done;
    int binary;                 /* first chunk contained a NUL byte */
    unsigned long long bytes;   /* bytes read so far */
};

static void lr_init(struct line_reader *lr, int fd, char *buf, size_t cap)
{
    memset(lr, 0, sizeof *lr);
    lr->fd = fd;
    lr->buf = buf;
    lr->cap = cap;
}

/* Refill the buffer.  Returns 0 or -1 (errno set). */
static int lr_fill(struct line_reader *lr)
{
    ssize_t got;

    if (lr->start > 0) {
        memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
        lr->end -= lr->start;
        lr->start = 0;
    }
    do
        got = read(lr->fd, lr->buf + lr->end, lr->cap - lr->end);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return -1;
    if (got == 0) {
        lr->eof = 1;
        return 0;
    }
    if (!lr->first_read_done) {
        lr->first_read_done = 1;
        lr->binary = memchr(lr->buf + lr->end, '\0', (size_t)got) != NULL;
    }
    lr->end += (size_t)got;
    lr->bytes += (unsigned long long)got;
    return 0;
}

/*
 * Next line, without its newline.  Returns 1 and sets *line / *len,
 * 0 at end of file, -1 on a read error.
 */
static int lr_next(struct line_reader *lr, const char **line, size_t *len)
{
    for (;;) {
        char *begin = lr->buf + lr->start;
        char *nl = memchr(begin, '\n', lr->end - lr->start);

        if (nl != NULL) {
            *line = begin;
            *len = (size_t)(nl - begin);
            lr->start = (size_t)(nl - lr->buf) + 1;
            return 1;
        }
        if (lr->eof) {
            if (lr->start == lr->end)
                return 0;
            *line = begin;              /* last line has no newline */
            *len = lr->end - lr->start;
            lr->start = lr->end;
            return 1;
        }
        if (lr->start == 0 && lr->end == lr->cap) {
            *line = begin;              /* over-long line: hand out a piece */
            *len = lr->end;
            lr->start = lr->end;
            return 1;
        }
        if (lr_fill(lr) < 0)
            return -1;
    }
}

/* ------------------------------------------------------------------------ */
/* Workers                                                                  */
/* ------------------------------------------------------------------------ */

static void scan_file(const char *path, char *buf, size_t cap)
{
    struct line_reader lr;
    struct stat st;
    const char *line;
    size_t len;
    long lineno = 0, nmatches = 0;
    int fd, rc;

    if (g_trace_on) // RACE(trace_sig)
        log_trace("scanning %s", path);

    fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        log_warn("%s: %s", path, strerror(errno));
        stats_record_error();
        return;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        /* Replaced by something else since the walker saw it. */
        log_warn("%s: no longer a regular file", path);
        stats_record_error();
        close(fd);
        return;
    }

    lr_init(&lr, fd, buf, cap);
    while ((rc = lr_next(&lr, &line, &len)) > 0) {
        if (lr.binary)
            break;
        lineno++;
        if (matcher_find(&g_matcher, line, len) == NULL)
            continue;
        nmatches++;
        if (g_trace_on) // RACE(trace_sig)
            log_trace("%s:%ld: match", path, lineno);
        if (g_opts.mode == OUT_LINES && // NORACE: options are fixed before the workers start
            results_add(path, lineno, line, len, 1) < 0)
            log_error("%s:%ld: out of memory, match dropped", path, lineno);
        if (g_opts.mode == OUT_FILES) // NORACE
            break;                      /* one hit is enough for -l */
        if (g_opts.max_per_file > 0 && nmatches >= g_opts.max_per_file) // NORACE
            break;
    }
    if (rc < 0) {
        log_warn("%s: read error: %s", path, strerror(errno));
        stats_record_error();
    }
    close(fd);

    if (lr.binary) {
        log_debug("%s: binary file, skipped", path);
        stats_record_binary();
    } else {
        if (nmatches > 0 && g_opts.mode != OUT_LINES && // NORACE
            results_add(path, 0, NULL, 0, nmatches) < 0)
            log_error("%s: out of memory, result dropped", path);
        stats_note_size(path, (long long)st.st_size);
        stats_record_file(lr.bytes, nmatches);
        log_debug("%s: %ld lines, %ld matches", path, lineno, nmatches);
    }

    /* Bumped for every file, so it is kept off the statistics lock. */
    g_stats.files_scanned++; // RACE(files_scanned)
}

void *scanner_worker(void *arg)
{
    struct work_queue *q = arg;
    char path[QUEUE_SLOT_SIZE];
    char buf[SCAN_BUF_SIZE];
    unsigned long done = 0;

    while (queue_pop(q, path, sizeof path)) {
        scan_file(path, buf, sizeof buf);
        done++;
    }
    log_debug("worker finished after %lu files", done);
    return NULL;
}
