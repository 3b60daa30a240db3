/*
 * receiver.c - datagram receive loop.
 *
 * Each receiver polls its socket, reads one datagram at a time, splits it
 * into lines and records every valid sample in the registry.  Datagrams
 * that are too large, or that carry no usable line at all, are counted as
 * dropped.
 */
#include "receiver.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

#include "config.h"
#include "log.h"
#include "parse.h"
#include "registry.h"

#define RECV_BUFSZ            (CONFIG_MAX_PACKET + 1)
#define RECV_POLL_MS          50
#define RECV_STOP_CHECK_EVERY 256
#define RECV_DRAIN_BUDGET     8192

struct server_stats g_stats = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_mutex_t lifecycle_lock = PTHREAD_MUTEX_INITIALIZER;
static int lifecycle_stopping;

void receivers_request_stop(void)
{
    pthread_mutex_lock(&lifecycle_lock);
    lifecycle_stopping = 1; // NORACE
    pthread_mutex_unlock(&lifecycle_lock);
}

static int stop_requested(void)
{
    int stopping;

    pthread_mutex_lock(&lifecycle_lock);
    stopping = lifecycle_stopping; // NORACE
    pthread_mutex_unlock(&lifecycle_lock);
    return stopping;
}

void stats_snapshot(struct stats_view *out)
{
    pthread_mutex_lock(&g_stats.lock);
    out->packets_received = g_stats.packets_received; // NORACE
    out->bytes_received = g_stats.bytes_received; // NORACE
    out->lines_parsed = g_stats.lines_parsed; // NORACE
    out->bad_lines = g_stats.bad_lines; // NORACE
    out->packets_dropped = g_stats.packets_dropped; // RACE(dropped)
    pthread_mutex_unlock(&g_stats.lock);
}

/*
 * Reads one datagram without blocking (the socket may be shared with other
 * receivers that were woken by the same poll).  *truncated is set if the
 * datagram did not fit into buf.
 */
static ssize_t recv_datagram(int fd, char *buf, size_t cap, int *truncated)
{
    struct iovec iov;
    struct msghdr msg;
    ssize_t n;

    iov.iov_base = buf;
    iov.iov_len = cap;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    n = recvmsg(fd, &msg, MSG_DONTWAIT);
    *truncated = n >= 0 && (msg.msg_flags & MSG_TRUNC) != 0;
    return n;
}

static void handle_packet(const struct receiver_ctx *ctx, const char *buf,
                          size_t len)
{
    unsigned long good = 0, bad = 0;
    struct timespec now;
    struct sample s;
    size_t pos = 0;

    clock_gettime(CLOCK_REALTIME, &now);
    while (pos < len) {
        const char *line = buf + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t linelen = nl ? (size_t)(nl - line) : len - pos;
        enum parse_status st;

        pos += linelen + (nl ? 1 : 0);
        st = parse_line(line, linelen, &s);
        if (st == PARSE_EMPTY)
            continue;
        if (st != PARSE_OK) {
            bad++;
            if (log_enabled(LVL_DEBUG))
                log_msg(LVL_DEBUG, "receiver %d: %s: '%.*s'", ctx->id,
                        parse_status_str(st), (int)(linelen > 80 ? 80 : linelen),
                        line);
            continue;
        }
        if (registry_record(&s, now.tv_sec) != 0) {
            bad++;
            continue;
        }
        good++;
    }

    if (good == 0) {
        /* Nothing usable in the whole datagram. */
        g_stats.packets_dropped++; // RACE(dropped)
    }

    pthread_mutex_lock(&g_stats.lock);
    g_stats.packets_received++; // NORACE
    g_stats.bytes_received += len; // NORACE
    g_stats.lines_parsed += good; // NORACE
    g_stats.bad_lines += bad; // NORACE
    pthread_mutex_unlock(&g_stats.lock);
}

void *receiver_main(void *arg)
{
    const struct receiver_ctx *ctx = arg;
    const size_t max_packet = g_config.max_packet; // NORACE
    unsigned long handled = 0, budget = RECV_DRAIN_BUDGET;
    int draining = 0;
    char buf[RECV_BUFSZ + 1];

    log_msg(LVL_DEBUG, "receiver %d: reading fd %d", ctx->id, ctx->fd);
    for (;;) {
        struct pollfd pfd;
        int truncated, rc;
        ssize_t n;

        pfd.fd = ctx->fd; // NORACE
        pfd.events = POLLIN;
        pfd.revents = 0;
        rc = poll(&pfd, 1, RECV_POLL_MS);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            log_errno(LVL_ERROR, errno, "receiver %d: poll", ctx->id);
            break;
        }
        if (rc == 0) {
            /* Idle: a good moment to honour a stop request. */
            if (draining || stop_requested())
                break;
            continue;
        }
        if (pfd.revents & (POLLERR | POLLNVAL)) {
            log_msg(LVL_ERROR, "receiver %d: socket error (revents %#x)",
                    ctx->id, (unsigned)pfd.revents);
            break;
        }

        n = recv_datagram(ctx->fd, buf, RECV_BUFSZ, &truncated);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                continue;
            log_errno(LVL_ERROR, errno, "receiver %d: recvmsg", ctx->id);
            break;
        }
        if (truncated || (size_t)n > max_packet) {
            g_stats.packets_dropped++; // RACE(dropped)
            if (log_enabled(LVL_DEBUG))
                log_msg(LVL_DEBUG, "receiver %d: dropped %zd-byte datagram "
                        "(limit %zu)", ctx->id, n, max_packet);
        } else {
            buf[n] = '\0';
            handle_packet(ctx, buf, (size_t)n);
        }

        /*
         * Under sustained load the socket is never idle, so look at the stop
         * flag every few hundred datagrams too; once it is set, keep going
         * until the socket is empty or the drain budget is used up.
         */
        handled++;
        if (!draining && handled % RECV_STOP_CHECK_EVERY == 0 &&
            stop_requested())
            draining = 1;
        if (draining && --budget == 0) {
            log_msg(LVL_WARN, "receiver %d: still busy after stop request, "
                    "abandoning queued datagrams", ctx->id);
            break;
        }
    }
    log_msg(LVL_DEBUG, "receiver %d: exiting after %lu datagrams", ctx->id,
            handled);
    return NULL;
}
