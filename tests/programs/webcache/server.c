/*
 * server.c - the listener thread and the worker pool.
 *
 * The listener accepts connections and hands them to the workers through
 * the connection queue; a worker reads one HTTP/1.0 request, answers it
 * from the file cache or the document root, and closes the connection.
 *
 * Besides files, two internal URLs are served:
 *   /server-status              plain-text counters
 *   /admin/max-conns?value=N    change the connection limit at run time
 *                               (loopback clients only, needs -A)
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "config.h"
#include "http.h"
#include "log.h"
#include "queue.h"
#include "server.h"
#include "stats.h"

#define LISTEN_POLL_MS   50          /* how often the listener checks for shutdown */
#define MAX_CONNS_LIMIT  100000

struct reply {
    int    status;
    size_t bytes;                    /* bytes written to the socket */
};

/* ------------------------------------------------------------------ */
/* socket helpers                                                      */

static int send_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;

    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void set_timeouts(int fd, int seconds)
{
    struct timeval tv;

    tv.tv_sec = seconds;
    tv.tv_usec = 0;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0)
        diag(DIAG_DEBUG, "cannot set socket timeouts on fd %d", fd);
}

/*
 * Read the request head into buf.  Returns its length, 0 if the peer
 * closed without sending anything, -1 on error or timeout, -2 if the head
 * does not fit.
 */
static ssize_t read_request(int fd, char *buf, size_t size)
{
    size_t used = 0;

    while (used + 1 < size) {
        ssize_t n = recv(fd, buf + used, size - 1 - used, 0);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        used += (size_t)n;
        buf[used] = '\0';
        if (strstr(buf, "\r\n\r\n") != NULL || strstr(buf, "\n\n") != NULL)
            return (ssize_t)used;
    }
    if (used + 1 >= size)
        return -2;
    buf[used] = '\0';
    return (ssize_t)used;
}

static int is_loopback(const struct sockaddr_in *peer)
{
    return (ntohl(peer->sin_addr.s_addr) >> 24) == 127;
}

/* ------------------------------------------------------------------ */
/* responses                                                           */

static void send_response(int fd, int status, const char *ctype,
                          const void *body, size_t len, time_t mtime,
                          const char *cache, int head_only, struct reply *r)
{
    char head[512];
    int hl;

    r->status = status;
    hl = http_format_head(head, sizeof head, status, ctype, len, mtime, cache);
    if (hl < 0) {
        r->status = 500;
        return;
    }
    if (send_all(fd, head, (size_t)hl) != 0)
        return;
    r->bytes += (size_t)hl;
    if (!head_only && len > 0 && send_all(fd, body, len) == 0)
        r->bytes += len;
}

static void send_error(int fd, int status, const char *detail, int head_only,
                       struct reply *r)
{
    char body[512];
    int n;

    n = snprintf(body, sizeof body,
                 "<!DOCTYPE html>\n"
                 "<html><head><title>%d %s</title></head>\n"
                 "<body><h1>%d %s</h1>\n<p>%s</p></body></html>\n",
                 status, http_reason(status), status, http_reason(status),
                 detail);
    if (n < 0)
        n = 0;
    else if ((size_t)n >= sizeof body)
        n = (int)sizeof body - 1;
    send_response(fd, status, "text/html; charset=utf-8", body, (size_t)n,
                  0, NULL, head_only, r);
}

/* Read docroot + relpath into a malloc'd buffer; NULL and *status on error. */
static void *load_file(const char *relpath, size_t *lenp, time_t *mtimep,
                       int *status)
{
    char path[WC_PATH_MAX + HTTP_MAX_PATH];
    char ebuf[128];
    struct stat st;
    char *buf;
    size_t size, got = 0;
    int fd, n;

    n = snprintf(path, sizeof path, "%s%s", g_cfg.docroot, relpath); // NORACE
    if (n < 0 || (size_t)n >= sizeof path) {
        *status = 414;
        return NULL;
    }
    fd = open(path, O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            *status = 404;
        else if (errno == EACCES)
            *status = 403;
        else
            *status = 500;
        if (*status == 500)
            diag(DIAG_WARN, "open %s: %s", path, errstr(errno, ebuf, sizeof ebuf));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *status = 403;
        return NULL;
    }
    size = (size_t)st.st_size;
    buf = malloc(size > 0 ? size : 1);
    if (buf == NULL) {
        close(fd);
        *status = 500;
        return NULL;
    }
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);

        if (r < 0) {
            if (errno == EINTR)
                continue;
            diag(DIAG_WARN, "read %s: %s", path, errstr(errno, ebuf, sizeof ebuf));
            free(buf);
            close(fd);
            *status = 500;
            return NULL;
        }
        if (r == 0)
            break;                      /* file shrank under us */
        got += (size_t)r;
    }
    close(fd);
    *lenp = got;
    *mtimep = st.st_mtime;
    return buf;
}

static void serve_file(const struct http_request *req, int fd, struct reply *r)
{
    char key[HTTP_MAX_PATH + 16];
    struct cache_entry *ent = NULL;
    const char *state = "HIT";
    int head_only = req->method == HTTP_HEAD;
    size_t len = 0;
    time_t mtime = 0;
    void *body;
    int status;

    status = http_clean_path(req->path, key, sizeof key);
    if (status != 0) {
        send_error(fd, status, "The requested path is not valid.", head_only, r);
        return;
    }

    body = cache_get(key, &len, &mtime, &ent);
    if (body == NULL) {
        stats_record_miss();
        body = load_file(key, &len, &mtime, &status);
        if (body == NULL) {
            send_error(fd, status, status == 404 ?
                       "The requested file does not exist." :
                       "The requested file cannot be served.", head_only, r);
            return;
        }
        ent = cache_put(key, body, len, mtime);
        state = ent != NULL ? "MISS" : "BYPASS";
    }
    send_response(fd, 200, http_mime_type(key), body, len, mtime, state,
                  head_only, r);
    free(body);

    if (ent != NULL)
        cache_mark_used(ent);
    if (strcmp(state, "HIT") == 0)
        g_stats.hits++; // RACE(hits): hot path skips the statistics lock
}

static void serve_status(const struct worker_arg *wa,
                         const struct http_request *req, int fd,
                         struct reply *r)
{
    struct server_stats st;
    struct cache_report cr;
    char counters[1024];
    char body[2048];
    int limit, n;

    limit = g_cfg.max_conns; // RACE(max_conns)
    stats_snapshot(&st);
    cache_report(&cr);
    if (stats_format(counters, sizeof counters, &st) < 0)
        counters[0] = '\0';

    n = snprintf(body, sizeof body,
                 WEBCACHE_NAME " " WEBCACHE_VERSION "\n"
                 "workers: %d\n"
                 "connections in flight: %d (limit %d)\n"
                 "connections accepted: %lu\n"
                 "cache entries: %d of %d\n"
                 "cache bytes: %lu\n"
                 "cache evictions: %lu\n"
                 "cache refreshes: %lu\n"
                 "cache lru idle: %ld ms\n"
                 "access log lines dropped: %lu\n"
                 "%s",
                 g_cfg.nworkers, // NORACE
                 queue_in_flight(wa->srv->queue), limit,
                 queue_total(wa->srv->queue),
                 cr.entries, cr.max_entries, (unsigned long)cr.bytes,
                 cr.evictions, cr.replacements, cr.oldest_idle_ms,
                 accesslog_dropped(), counters);
    if (n < 0)
        n = 0;
    else if ((size_t)n >= sizeof body)
        n = (int)sizeof body - 1;
    send_response(fd, 200, "text/plain; charset=utf-8", body, (size_t)n, 0,
                  NULL, req->method == HTTP_HEAD, r);
}

/* A connection limit: 1..MAX_CONNS_LIMIT, decimal digits only. */
static int parse_limit(const char *s, long *out)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > 6)
        return -1;
    for (i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return -1;
    *out = strtol(s, NULL, 10);
    return (*out >= 1 && *out <= MAX_CONNS_LIMIT) ? 0 : -1;
}

static void serve_admin(const struct http_request *req,
                        const struct conn_item *item, int fd, struct reply *r)
{
    int head_only = req->method == HTTP_HEAD;
    char value[32], body[128];
    long v;
    int old, n;

    if (!g_cfg.allow_admin || !is_loopback(&item->peer)) { // NORACE
        send_error(fd, 403, "Administration is not allowed from here.",
                   head_only, r);
        return;
    }
    if (strcmp(req->path, "/admin/max-conns") != 0) {
        send_error(fd, 404, "Unknown administrative command.", head_only, r);
        return;
    }

    if (http_query_param(req->query, "value", value, sizeof value) != 0) {
        old = g_cfg.max_conns; // RACE(max_conns)
        n = snprintf(body, sizeof body, "max-conns: %d\n", old);
    } else {
        if (parse_limit(value, &v) != 0) {
            send_error(fd, 400, "value must be a positive integer.",
                       head_only, r);
            return;
        }
        old = g_cfg.max_conns; // RACE(max_conns)
        g_cfg.max_conns = (int)v; // RACE(max_conns): written by a worker, read by the listener
        diag(DIAG_DEBUG, "admin: max-conns changed from %d to %ld", old, v);
        n = snprintf(body, sizeof body, "max-conns: %d -> %ld\n", old, v);
    }
    if (n < 0)
        n = 0;
    else if ((size_t)n >= sizeof body)
        n = (int)sizeof body - 1;
    send_response(fd, 200, "text/plain; charset=utf-8", body, (size_t)n, 0,
                  NULL, head_only, r);
}

static void log_access(const struct conn_item *item,
                       const struct http_request *req, const struct reply *r)
{
    char line[1024], addr[INET_ADDRSTRLEN], stamp[64];
    struct tm tm;
    time_t now = time(NULL);
    int n;

    if (inet_ntop(AF_INET, &item->peer.sin_addr, addr, sizeof addr) == NULL)
        snprintf(addr, sizeof addr, "-");
    if (localtime_r(&now, &tm) == NULL ||
        strftime(stamp, sizeof stamp, "%d/%b/%Y:%H:%M:%S %z", &tm) == 0)
        snprintf(stamp, sizeof stamp, "-");

    n = snprintf(line, sizeof line,
                 "%s - - [%s] \"%s %s%s%s HTTP/%d.%d\" %d %lu \"%s\" \"%s\"\n",
                 addr, stamp,
                 req->method_name[0] ? req->method_name : "-",
                 req->path[0] ? req->path : "-",
                 req->query[0] ? "?" : "", req->query,
                 req->version_major, req->version_minor,
                 r->status, (unsigned long)r->bytes,
                 req->referer[0] ? req->referer : "-",
                 req->user_agent[0] ? req->user_agent : "-");
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line) {
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    accesslog_append(line, (size_t)n);
}

static void handle_connection(const struct worker_arg *wa,
                              const struct conn_item *item)
{
    char buf[HTTP_MAX_REQUEST + 1];
    struct http_request req;
    struct reply r = { 0, 0 };
    ssize_t n;
    int status;

    memset(&req, 0, sizeof req);
    set_timeouts(item->fd, g_cfg.io_timeout); // NORACE

    n = read_request(item->fd, buf, sizeof buf);
    if (n == 0)
        return;                         /* connected and went away */
    if (n < 0) {
        if (n == -2)
            send_error(item->fd, 413, "Request head too large.", 0, &r);
        else
            send_error(item->fd, 408, "No request received in time.", 0, &r);
    } else if ((status = http_parse_request(buf, (size_t)n, &req)) != 0) {
        send_error(item->fd, status, "The request could not be parsed.", 0, &r);
    } else if (req.method == HTTP_UNSUPPORTED) {
        send_error(item->fd, 501, "Only GET and HEAD are supported.", 0, &r);
    } else if (strcmp(req.path, "/server-status") == 0) {
        serve_status(wa, &req, item->fd, &r);
    } else if (strncmp(req.path, "/admin/", 7) == 0) {
        serve_admin(&req, item, item->fd, &r);
    } else {
        serve_file(&req, item->fd, &r);
    }

    stats_record_response(r.status, r.bytes);
    log_access(item, &req, &r);
    diag(DIAG_DEBUG, "worker %d: %s %s -> %d", wa->id, req.method_name,
         req.path, r.status);
}

void *worker_main(void *arg)
{
    struct worker_arg *wa = arg;
    struct conn_queue *q = wa->srv->queue; // NORACE needs=joins: read-only in the worker; free(wargs) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run
    struct conn_item item;
    unsigned long served = 0;

    while (queue_pop(q, &item) == 0) {
        if (g_shutting_down) { // RACE(shutdown): flag polled without synchronisation
            struct reply r = { 0, 0 };

            send_error(item.fd, 503, "The server is shutting down.", 0, &r);
            stats_record_response(r.status, r.bytes);
        } else {
            handle_connection(wa, &item);
        }
        close(item.fd);
        queue_done(q);
        served++;
    }
    diag(DIAG_DEBUG, "worker %d: exiting after %lu connections", wa->id,
         served);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* listener                                                            */

int server_listen(struct server *srv, const char *addr, int port, int backlog)
{
    struct sockaddr_in sin;
    socklen_t slen = sizeof sin;
    char ebuf[128];
    int fd, one = 1;

    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
        diag(DIAG_ERR, "invalid listen address '%s'", addr);
        return -1;
    }

    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        diag(DIAG_ERR, "socket: %s", errstr(errno, ebuf, sizeof ebuf));
        return -1;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0)
        diag(DIAG_WARN, "SO_REUSEADDR: %s", errstr(errno, ebuf, sizeof ebuf));
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        diag(DIAG_ERR, "bind %s:%d: %s", addr, port,
             errstr(errno, ebuf, sizeof ebuf));
        close(fd);
        return -1;
    }
    if (listen(fd, backlog) != 0) {
        diag(DIAG_ERR, "listen: %s", errstr(errno, ebuf, sizeof ebuf));
        close(fd);
        return -1;
    }
    if (getsockname(fd, (struct sockaddr *)&sin, &slen) != 0) {
        diag(DIAG_ERR, "getsockname: %s", errstr(errno, ebuf, sizeof ebuf));
        close(fd);
        return -1;
    }
    srv->listen_fd = fd;
    srv->port = ntohs(sin.sin_port);
    return 0;
}

void *listener_main(void *arg)
{
    struct server *srv = arg;
    int lfd = srv->listen_fd; // NORACE
    char ebuf[128];

    while (!g_shutting_down) { // RACE(shutdown)
        struct pollfd pfd;
        struct conn_item item;
        socklen_t plen = sizeof item.peer;
        int rc;
        int limit = g_cfg.max_conns; // RACE(max_conns): admin requests change it without a lock

        pfd.fd = lfd;
        pfd.events = POLLIN;
        pfd.revents = 0;
        rc = poll(&pfd, 1, LISTEN_POLL_MS);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            diag(DIAG_ERR, "poll: %s", errstr(errno, ebuf, sizeof ebuf));
            break;
        }
        if (rc == 0)
            continue;

        memset(&item, 0, sizeof item);
        item.fd = accept(lfd, (struct sockaddr *)&item.peer, &plen);
        if (item.fd < 0) {
            if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
                diag(DIAG_WARN, "accept: %s", errstr(errno, ebuf, sizeof ebuf));
            continue;
        }

        rc = queue_push(srv->queue, &item, limit);
        if (rc != QUEUE_OK) {
            struct reply r = { 0, 0 };

            send_error(item.fd, 503, rc == QUEUE_BUSY ?
                       "Too many connections, try again later." :
                       "The server is shutting down.", 0, &r);
            stats_record_reject();
            close(item.fd);
        }
    }

    diag(DIAG_INFO, "listener: shutting down");
    queue_close(srv->queue);
    return NULL;
}
