/*
 * selftest.c - built-in load test against a server on 127.0.0.1.
 *
 * Everything the clients need is written before the server threads
 * start: the document root, the file table below (constant) and the
 * port in g_cfg.  Each client only uses its own stack and heap and
 * returns its failure count through pthread_join().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "config.h"
#include "log.h"
#include "selftest.h"
#include "stats.h"

#define ST_CLIENTS        4
#define ST_REQUESTS       150        /* per client */
#define ST_RESPONSE_MAX   (256 * 1024)
#define ST_TIMEOUT_SEC    5

struct st_file {
    const char *name;                /* relative to the document root */
    size_t      size;
};

static const struct st_file st_files[] = {
    { "index.html",    1200 },
    { "style.css",      900 },
    { "app.js",        3000 },
    { "a.txt",         5000 },
    { "b.txt",        12000 },
    { "c.txt",        20000 },
    { "img/logo.png",  7000 },
    { "data.json",     2500 },
    { "big.bin",      96 * 1024 },   /* larger than the cacheable limit */
};
#define ST_NFILES   (sizeof st_files / sizeof st_files[0])

static char st_base[WC_PATH_MAX];    /* temporary directory, "" if none */

static int st_path(char *buf, size_t size, const char *a, const char *b)
{
    int n = snprintf(buf, size, "%s/%s", a, b);

    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

static int st_write_file(const char *docroot, const struct st_file *f,
                         unsigned seed)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789\n";
    char path[WC_PATH_MAX];
    char chunk[4096];
    size_t done = 0;
    int fd;

    if (st_path(path, sizeof path, docroot, f->name) != 0)
        return -1;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    while (done < f->size) {
        size_t n = f->size - done, i;

        if (n > sizeof chunk)
            n = sizeof chunk;
        for (i = 0; i < n; i++)
            chunk[i] = alphabet[(seed * 7 + done + i) % (sizeof alphabet - 1)];
        if (write(fd, chunk, n) != (ssize_t)n) {
            close(fd);
            return -1;
        }
        done += n;
    }
    return close(fd);
}

int selftest_prepare(struct config *cfg)
{
    char ebuf[128], dir[WC_PATH_MAX];
    size_t i;

    snprintf(st_base, sizeof st_base, "/tmp/webcache-selftest-XXXXXX");
    if (mkdtemp(st_base) == NULL) {
        diag(DIAG_ERR, "selftest: mkdtemp: %s", errstr(errno, ebuf, sizeof ebuf));
        st_base[0] = '\0';
        return -1;
    }
    if (st_path(cfg->docroot, sizeof cfg->docroot, st_base, "htdocs") != 0 ||
        st_path(cfg->access_log, sizeof cfg->access_log, st_base, "access.log") != 0 ||
        st_path(dir, sizeof dir, cfg->docroot, "img") != 0)
        return -1;
    if (mkdir(cfg->docroot, 0755) != 0 || mkdir(dir, 0755) != 0) {
        diag(DIAG_ERR, "selftest: mkdir: %s", errstr(errno, ebuf, sizeof ebuf));
        return -1;
    }
    for (i = 0; i < ST_NFILES; i++) {
        if (st_write_file(cfg->docroot, &st_files[i], (unsigned)i) != 0) {
            diag(DIAG_ERR, "selftest: cannot create %s: %s", st_files[i].name,
                 errstr(errno, ebuf, sizeof ebuf));
            return -1;
        }
    }

    snprintf(cfg->bind_addr, sizeof cfg->bind_addr, "127.0.0.1");
    cfg->port = 0;                   /* ephemeral */
    cfg->nworkers = 4;
    cfg->queue_len = 64;
    cfg->max_conns = 64;
    cfg->cache_entries = 6;          /* fewer than files: forces evictions */
    cfg->cache_max_object = 64 * 1024;
    cfg->cache_ttl = 30;
    cfg->io_timeout = ST_TIMEOUT_SEC;
    cfg->allow_admin = 1;
    return 0;
}

void selftest_cleanup(void)
{
    char path[WC_PATH_MAX], docroot[WC_PATH_MAX];
    size_t i;

    if (st_base[0] == '\0')
        return;
    if (st_path(docroot, sizeof docroot, st_base, "htdocs") == 0) {
        for (i = 0; i < ST_NFILES; i++)
            if (st_path(path, sizeof path, docroot, st_files[i].name) == 0)
                unlink(path);
        if (st_path(path, sizeof path, docroot, "img") == 0)
            rmdir(path);
        rmdir(docroot);
    }
    if (st_path(path, sizeof path, st_base, "access.log") == 0)
        unlink(path);
    if (rmdir(st_base) != 0)
        diag(DIAG_WARN, "selftest: could not remove %s", st_base);
}

/* ------------------------------------------------------------------ */
/* client side                                                         */

struct st_result {
    int    status;
    long   content_length;           /* -1 if the header was missing */
    size_t body_len;
};

static int st_connect(void)
{
    struct sockaddr_in sin;
    struct timeval tv;
    int fd;

    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    tv.tv_sec = ST_TIMEOUT_SEC;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);

    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((unsigned short)g_cfg.port); // NORACE
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    while (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

/* Send one request, read the whole response, pick out status and sizes. */
static int st_fetch(const char *request, char *buf, size_t size,
                    struct st_result *res)
{
    size_t used = 0, reqlen = strlen(request);
    const char *p, *end_of_head;
    int fd;

    fd = st_connect();
    if (fd < 0)
        return -1;
    while (reqlen > 0) {
        ssize_t n = send(fd, request, reqlen, MSG_NOSIGNAL);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        request += n;
        reqlen -= (size_t)n;
    }
    for (;;) {
        ssize_t n;

        if (used + 1 >= size)
            break;
        n = recv(fd, buf + used, size - 1 - used, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    buf[used] = '\0';

    if (sscanf(buf, "HTTP/1.%*d %d", &res->status) != 1)
        return -1;
    end_of_head = strstr(buf, "\r\n\r\n");
    if (end_of_head == NULL)
        return -1;
    res->body_len = used - (size_t)(end_of_head + 4 - buf);
    res->content_length = -1;
    for (p = buf; p != NULL && p < end_of_head; p = strstr(p, "\r\n")) {
        if (*p == '\r')
            p += 2;
        if (strncasecmp(p, "Content-Length:", 15) == 0) {
            res->content_length = strtol(p + 15, NULL, 10);
            break;
        }
    }
    return 0;
}

static void *client_main(void *arg)
{
    int id = (int)(intptr_t)arg;
    long failures = 0;
    char request[256];
    char *buf;
    int i;

    buf = malloc(ST_RESPONSE_MAX);
    if (buf == NULL)
        return (void *)(intptr_t)ST_REQUESTS;

    for (i = 0; i < ST_REQUESTS; i++) {
        int kind = (id * 5 + i * 3) % 16;
        int want_status = 200, head_only = 0;
        long want_len = -1;
        struct st_result res;

        if (kind < (int)ST_NFILES) {
            snprintf(request, sizeof request,
                     "GET /%s HTTP/1.0\r\nHost: localhost\r\n"
                     "User-Agent: webcache-selftest/%d\r\n\r\n",
                     st_files[kind].name, id);
            want_len = (long)st_files[kind].size;
        } else if (kind == 9) {
            snprintf(request, sizeof request,
                     "GET / HTTP/1.0\r\nReferer: http://localhost/\r\n\r\n");
            want_len = (long)st_files[0].size;
        } else if (kind == 10) {
            snprintf(request, sizeof request,
                     "GET /server-status HTTP/1.0\r\n\r\n");
        } else if (kind == 11) {
            snprintf(request, sizeof request,
                     "GET /admin/max-conns?value=%d HTTP/1.0\r\n\r\n",
                     48 + (i + id) % 16);
        } else if (kind == 12) {
            snprintf(request, sizeof request,
                     "GET /no/such/file.html HTTP/1.0\r\n\r\n");
            want_status = 404;
        } else if (kind == 13) {
            snprintf(request, sizeof request,
                     "GET /img/../../etc/passwd HTTP/1.0\r\n\r\n");
            want_status = 403;
        } else if (kind == 14) {
            snprintf(request, sizeof request, "HEAD /b.txt HTTP/1.0\r\n\r\n");
            want_len = (long)st_files[4].size;
            head_only = 1;
        } else {
            snprintf(request, sizeof request, "DELETE /a.txt HTTP/1.0\r\n\r\n");
            want_status = 501;
        }

        if (st_fetch(request, buf, ST_RESPONSE_MAX, &res) != 0) {
            diag(DIAG_WARN, "selftest client %d: request %d failed", id, i);
            failures++;
            continue;
        }
        if (res.status == 503)
            continue;                   /* shed load: acceptable */
        if (res.status != want_status) {
            diag(DIAG_WARN, "selftest client %d: request %d: status %d, want %d",
                 id, i, res.status, want_status);
            failures++;
        } else if (want_len >= 0 &&
                   (res.content_length != want_len ||
                    res.body_len != (head_only ? 0 : (size_t)want_len))) {
            diag(DIAG_WARN, "selftest client %d: request %d: length %ld/%lu, want %ld",
                 id, i, res.content_length, (unsigned long)res.body_len, want_len);
            failures++;
        }
    }
    free(buf);
    return (void *)(intptr_t)failures;
}

long selftest_run(void)
{
    pthread_t clients[ST_CLIENTS];
    long failures = 0;
    int i, rc;

    diag(DIAG_INFO, "selftest: %d clients x %d requests against 127.0.0.1:%d",
         ST_CLIENTS, ST_REQUESTS, g_cfg.port); // NORACE
    for (i = 0; i < ST_CLIENTS; i++) {
        rc = pthread_create(&clients[i], NULL, client_main, (void *)(intptr_t)i);
        if (rc != 0) {
            diag(DIAG_ERR, "selftest: cannot start client %d", i);
            exit(EXIT_FAILURE);
        }
    }
    for (i = 0; i < ST_CLIENTS; i++) {
        void *ret;

        if (pthread_join(clients[i], &ret) == 0)
            failures += (long)(intptr_t)ret;
        else
            failures++;
    }
    return failures;
}

int selftest_verdict(long failures, const struct server_stats *st)
{
    unsigned long expected = (unsigned long)ST_CLIENTS * ST_REQUESTS;
    unsigned long answered = st->requests + st->rejected;

    printf("selftest: %lu requests, %lu answered by workers, %lu rejected, "
           "%lu cache hits, %lu misses, %ld failed checks\n",
           expected, st->requests, st->rejected, st->hits, st->misses, failures);
    if (failures != 0 || answered != expected || st->hits == 0) {
        printf("selftest: FAIL\n");
        return -1;
    }
    printf("selftest: PASS\n");
    return 0;
}
