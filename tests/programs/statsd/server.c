/*
 * server.c - thread orchestration and signal plumbing.
 *
 * Signals: SIGHUP, SIGINT and SIGTERM are forwarded to the supervisor
 * through a self-pipe (the handler only write()s one byte), so the reload
 * and the shutdown run in ordinary thread context.  SIGUSR1 sets
 * dump_requested, which the flusher polls.  All four signals are blocked
 * in the worker threads, so the handlers always run on the main thread.
 */
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "flusher.h"
#include "log.h"
#include "receiver.h"

static int sig_pipe[2] = { -1, -1 };

static pthread_t receiver_threads[MAX_RECEIVERS];
static struct receiver_ctx receiver_ctx[MAX_RECEIVERS];
static int receiver_count;

/* Touched by the supervisor (main thread) only. */
static unsigned long reload_count;

static void notify_handler(int signo)
{
    const int saved_errno = errno;
    const char code = signo == SIGHUP ? 'H' : 'T';
    ssize_t n;

    n = write(sig_pipe[1], &code, 1); // NORACE
    (void)n;        /* pipe full: a notification is already pending */
    errno = saved_errno;
}

static void dump_handler(int signo)
{
    (void)signo;
    dump_requested = 1; // RACE(dump)
}

static int set_fd_flags(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -1;
    fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
        return -1;
    return 0;
}

static int install_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;

    sa.sa_handler = notify_handler;
    if (sigaction(SIGHUP, &sa, NULL) != 0 ||
        sigaction(SIGINT, &sa, NULL) != 0 ||
        sigaction(SIGTERM, &sa, NULL) != 0)
        return -1;

    sa.sa_handler = dump_handler;
    if (sigaction(SIGUSR1, &sa, NULL) != 0)
        return -1;

    /* Writes to a vanished peer must fail with EPIPE, not kill us. */
    sa.sa_handler = SIG_IGN;
    return sigaction(SIGPIPE, &sa, NULL);
}

int server_signals_init(void)
{
    if (pipe(sig_pipe) != 0) {
        log_errno(LVL_ERROR, errno, "pipe");
        return -1;
    }
    if (set_fd_flags(sig_pipe[0]) != 0 || set_fd_flags(sig_pipe[1]) != 0) {
        log_errno(LVL_ERROR, errno, "fcntl(self-pipe)");
        return -1;
    }
    /* The pipe must exist before the first handler can run. */
    if (install_handlers() != 0) {
        log_errno(LVL_ERROR, errno, "sigaction");
        return -1;
    }
    return 0;
}

static void async_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGUSR1);
}

int server_start(const int *fds, int count)
{
    sigset_t block, saved;
    int i, rc;

    if (count < 1 || count > MAX_RECEIVERS) {
        log_msg(LVL_ERROR, "invalid receiver count %d", count);
        return -1;
    }
    for (i = 0; i < count; i++) {
        receiver_ctx[i].id = i;
        receiver_ctx[i].fd = fds[i];
    }
    receiver_count = count;

    /* The threads inherit this mask: signals go to the main thread only. */
    async_signals(&block);
    rc = pthread_sigmask(SIG_BLOCK, &block, &saved);
    if (rc != 0) {
        log_errno(LVL_ERROR, rc, "pthread_sigmask");
        return -1;
    }
    if (flusher_start() != 0) {
        pthread_sigmask(SIG_SETMASK, &saved, NULL);
        return -1;
    }
    for (i = 0; i < receiver_count; i++) {
        rc = pthread_create(&receiver_threads[i], NULL, receiver_main,
                            &receiver_ctx[i]);
        if (rc != 0) {
            log_errno(LVL_ERROR, rc, "cannot start receiver %d", i);
            exit(EXIT_FAILURE);
        }
    }
    rc = pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0)
        log_errno(LVL_WARN, rc, "pthread_sigmask(restore)");
    log_msg(LVL_INFO, "started %d receivers and the flusher", receiver_count);
    return 0;
}

void server_stop(void)
{
    int i, rc;

    receivers_request_stop();
    for (i = 0; i < receiver_count; i++) {
        rc = pthread_join(receiver_threads[i], NULL);
        if (rc != 0)
            log_errno(LVL_ERROR, rc, "pthread_join(receiver %d)", i);
    }
    /* Every sample is in the registry now; the final flush picks it up. */
    flusher_stop();
    log_msg(LVL_INFO, "all threads stopped");
}

int server_wait_signal(int timeout_ms)
{
    struct pollfd pfd;
    char code;
    ssize_t n;
    int rc;

    pfd.fd = sig_pipe[0];
    pfd.events = POLLIN;
    pfd.revents = 0;
    rc = poll(&pfd, 1, timeout_ms);
    if (rc < 0)
        return errno == EINTR ? 0 : -1;
    if (rc == 0)
        return 0;
    n = read(sig_pipe[0], &code, 1);
    if (n == 1)
        return (unsigned char)code;
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    return -1;
}

int server_dispatch(int code)
{
    switch (code) {
    case 'H':
        reload_count++;
        config_reload();
        return 0;
    case 'T':
        log_msg(LVL_INFO, "termination requested");
        return 1;
    default:
        return 0;
    }
}

void server_run(void)
{
    for (;;) {
        int code = server_wait_signal(-1);

        if (code < 0) {
            log_errno(LVL_ERROR, errno, "reading the signal pipe");
            return;
        }
        if (server_dispatch(code))
            return;
    }
}

/*
 * All receivers and the flusher have been joined by server_stop(), so the
 * counters are quiescent and can be read directly.
 */
void server_get_summary(struct server_summary *out)
{
    out->packets_received = g_stats.packets_received; // NORACE needs=joins
    out->bytes_received = g_stats.bytes_received; // NORACE needs=joins
    out->lines_parsed = g_stats.lines_parsed; // NORACE needs=joins
    out->bad_lines = g_stats.bad_lines; // NORACE needs=joins
    out->packets_dropped = g_stats.packets_dropped;
    out->reloads = reload_count;
}
