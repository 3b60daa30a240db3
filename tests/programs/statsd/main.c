/*
 * statsd - a small statistics collector in the spirit of etsy/statsd.
 *
 * Build:   gcc -std=gnu11 -Wall -Wextra -pthread *.c -o statsd
 * TSan:    gcc -std=gnu11 -Wall -Wextra -fsanitize=thread -g -O1 -pthread *.c -o statsd-tsan
 * Run:     ./statsd -p 8125 -i 10000 -c statsd.conf
 *          echo "requests:1|c" | nc -u -w0 127.0.0.1 8125
 * Test:    ./statsd --selftest      (or -T)
 *
 * WHAT IT DOES
 *   A fixed number of receiver threads (-r, created in a loop, joined in a
 *   loop over the same array) read datagrams from a UDP socket on loopback.
 *   Each datagram holds newline-separated metric lines:
 *       name:value|c[|@rate]   counter        name:value|g   gauge (+/- = delta)
 *       name:value|ms[|@rate]  timer (also |h)
 *   Parsed samples go into a registry (registry.c): a hash table of named
 *   metrics with counters, gauges and timers (sum/min/max, a log2 histogram
 *   and a sample reservoir for percentiles), protected by one global mutex.
 *   A flusher thread (flusher.c) wakes every flush interval
 *   (pthread_cond_timedwait on a global condition variable), snapshots and
 *   resets the registry under its lock, and writes a graphite-style report
 *   to stdout or a file.  SIGHUP re-reads the config file (config.c),
 *   SIGUSR1 makes the flusher dump the current counters, SIGINT/SIGTERM shut
 *   the server down after a final flush.  In --selftest mode the receivers
 *   read from socketpairs fed by main() with a fixed workload, and the
 *   report and config files live in /tmp.
 *
 *   Modules: main.c (options, daemon and self-test drivers), server.c
 *   (threads, signals, supervisor), receiver.c (receive loop, server
 *   counters), parse.c (line protocol), registry.c (metric table),
 *   flusher.c (reports), config.c (settings, reload), log.c (logging).
 *
 * PLANTED RACES
 *   RACE(dropped)   g_stats.packets_dropped
 *       receiver.c: receiver_main() and handle_packet() increment it without
 *       g_stats.lock ("just a statistic"), while every other field of
 *       g_stats is updated under that lock; stats_snapshot() (called by the
 *       flusher, receiver.c) reads it under g_stats.lock.  Concurrent
 *       receivers lose increments and the flusher reads a torn/stale value:
 *       the accesses have no common lock.
 *
 *   RACE(interval)  g_config.flush_interval_ms
 *       config.c: config_reload() (supervisor, on SIGHUP) rewrites it under
 *       config_lock, but flusher.c: flusher_main() reads it at the top of
 *       every cycle without taking config_lock (the other reloadable
 *       settings are read under the lock in settings_load()).
 *
 *   RACE(last_seen) struct metric.last_seen
 *       registry.c: registry_record() looks the metric up and updates it
 *       under registry_lock, then releases the lock and stores the
 *       timestamp afterwards (check-then-act with the lock dropped in
 *       between).  Other receivers write the same field the same way, and
 *       copy_metric() (flusher, under registry_lock) reads it.  Were idle
 *       metrics ever expired this would also be a use-after-free.
 *
 *   RACE(dump)      dump_requested (flusher.c)
 *       server.c: dump_handler(), the SIGUSR1 handler, sets it; flusher.c:
 *       flusher_main() tests and clears it with no synchronisation at all,
 *       so a request arriving between the test and the clear is lost.  The
 *       handler runs on the main thread (signals are blocked in workers).
 *
 * DELIBERATELY RACE-FREE SHARED DATA (and the idiom that protects it)
 *   - registry table: buckets[], metric_count, metrics_rejected and every
 *     field of struct metric except last_seen: the global mutex
 *     registry_lock (registry.c) around every access.
 *   - g_stats.packets_received/bytes_received/lines_parsed/bad_lines: the
 *     mutex field g_stats.lock of the global struct g_stats; main reads
 *     them unlocked in server_get_summary() only after joining every
 *     receiver (join loop over the create loop's array) and the flusher.
 *   - g_config.percentile/prefix/stale_after_s (reloadable): global mutex
 *     config_lock in config_reload() (writer) and settings_load() (reader).
 *   - g_config startup-only fields (max_packet, output_path, config_path,
 *     ...) and the receiver_ctx[] array: written by main before the first
 *     pthread_create, only read afterwards.  sig_pipe[] is written before
 *     the signal handlers are installed and only read afterwards.
 *   - lifecycle_stopping (receiver.c): global mutex lifecycle_lock.
 *   - flush_stop (flusher.c): global mutex flush_lock, which is also the
 *     mutex of the global condition variable flush_cond.
 *   - log_seq (log.c): global mutex log_lock.
 *   - flusher.totals (flusher.c): written only by the flusher thread, which
 *     is created once; main reads them only after pthread_join() of it.
 *   - snapshots, parse buffers and report settings: thread-local (stack or
 *     heap allocated by the thread that uses them and never published).
 *
 * Accesses to a racy location that are ordered by thread creation or by
 * the joins (the struct copies "g_config = ..." in main.c before any
 * thread starts, the post-join read of packets_dropped in
 * server_get_summary()) are deliberately left unannotated.
 *
 * SELF TEST (-T / --selftest)
 *   Four receivers read from socketpairs that main() feeds for 160 rounds:
 *   per round and receiver one valid multi-line datagram (shared metric
 *   names, so the receivers contend on the same registry entries), a burst
 *   of three over-sized datagrams and every other round one datagram with
 *   no valid line (both counted in packets_dropped).  Every sixth round
 *   main() rewrites the config file with a 2 or 3 ms flush interval and
 *   raises SIGHUP; every fourth round it raises SIGUSR1.  The flusher runs
 *   every 2-3 ms.  At the end the totals (lines, bad lines, counter sums,
 *   timer counts, reloads) are checked against the workload; only the
 *   dropped count may be off, because of RACE(dropped).  Files:
 *   /tmp/statsd-selftest-<pid>.{conf,out}, removed unless -k is given.
 *   Under ThreadSanitizer every run reports all four planted races.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "flusher.h"
#include "log.h"
#include "receiver.h"
#include "registry.h"
#include "server.h"

#define SELFTEST_RECEIVERS  4
#define SELFTEST_ROUNDS     160
#define SELFTEST_MAX_PACKET 512

struct options {
    struct config cfg;
    int verbosity;          /* added to LVL_INFO */
    int selftest;
    int keep_files;
};

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
        "usage: %s [options]\n"
        "  -b ADDR      bind address (default 127.0.0.1)\n"
        "  -p PORT      UDP port (default 8125)\n"
        "  -r N         receiver threads, 1-%d (default 4)\n"
        "  -i MS        flush interval in milliseconds (default 10000)\n"
        "  -P PREFIX    prefix of reported metric paths (default 'stats')\n"
        "  -o FILE      report output, '-' for stdout (default)\n"
        "  -c FILE      configuration file; re-read on SIGHUP, its values\n"
        "               then replace the reloadable settings\n"
        "  -m BYTES     largest datagram accepted (default 1432)\n"
        "  -s SECONDS   hide metrics idle for longer (0: never, default 300)\n"
        "  -v / -q      more / less logging (repeatable)\n"
        "  -T, --selftest   run the built-in concurrent self test\n"
        "  -k           keep the self-test files in /tmp\n"
        "  -h, --help   this text\n"
        "signals: HUP reload, USR1 dump counters, INT/TERM stop\n",
        prog, MAX_RECEIVERS);
}

static int set_option(struct config *cfg, const char *key, const char *value)
{
    char err[200];

    if (config_set_key(cfg, key, value, err, sizeof err) != 0) {
        fprintf(stderr, "statsd: %s\n", err);
        return -1;
    }
    return 0;
}

/*
 * Precedence: built-in defaults < config file < command line.  The file
 * is read first, so the command line is scanned twice.
 */
static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        { "selftest", no_argument, NULL, 'T' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char shortopts[] = "b:p:r:i:P:o:c:m:s:vqTkh";
    const char *config_file = NULL;
    char err[320];
    int c;

    memset(o, 0, sizeof *o);
    config_set_defaults(&o->cfg);

    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            config_file = optarg;
            break;
        case 'h':
            usage(stdout, argv[0]);
            exit(EXIT_SUCCESS);
        case '?':
            usage(stderr, argv[0]);
            return -1;
        default:
            break;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "statsd: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (config_file != NULL) {
        if (strlen(config_file) >= sizeof o->cfg.config_path) {
            fprintf(stderr, "statsd: config path too long\n");
            return -1;
        }
        if (config_parse_file(config_file, &o->cfg, err, sizeof err) != 0) {
            fprintf(stderr, "statsd: %s\n", err);
            return -1;
        }
        snprintf(o->cfg.config_path, sizeof o->cfg.config_path, "%s",
                 config_file);
    }

    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        int rc = 0;

        switch (c) {
        case 'b': rc = set_option(&o->cfg, "bind", optarg); break;
        case 'p': rc = set_option(&o->cfg, "port", optarg); break;
        case 'r': rc = set_option(&o->cfg, "receivers", optarg); break;
        case 'i': rc = set_option(&o->cfg, "flush_interval", optarg); break;
        case 'P': rc = set_option(&o->cfg, "prefix", optarg); break;
        case 'o': rc = set_option(&o->cfg, "output", optarg); break;
        case 'm': rc = set_option(&o->cfg, "max_packet", optarg); break;
        case 's': rc = set_option(&o->cfg, "stale_after", optarg); break;
        case 'v': o->verbosity++; break;
        case 'q': o->verbosity--; break;
        case 'T': o->selftest = 1; break;
        case 'k': o->keep_files = 1; break;
        default: break;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

static enum log_level level_for(int base, int verbosity)
{
    int level = base + verbosity;

    if (level < LVL_ERROR)
        level = LVL_ERROR;
    if (level > LVL_DEBUG)
        level = LVL_DEBUG;
    return (enum log_level)level;
}

static void log_summary(const struct server_summary *sum,
                        const struct flusher_totals *ft)
{
    log_msg(LVL_INFO, "received %lu datagrams (%lu bytes), %lu lines parsed, "
            "%lu bad lines, %lu datagrams dropped", sum->packets_received,
            sum->bytes_received, sum->lines_parsed, sum->bad_lines,
            sum->packets_dropped);
    log_msg(LVL_INFO, "%lu flushes, %lu dumps, %lu reloads, %zu metrics",
            ft->flushes, ft->dumps, sum->reloads, registry_size());
}

/* ------------------------------------------------------------------------ */
/* daemon mode                                                              */

static int open_udp_socket(const char *addr, unsigned short port)
{
    struct sockaddr_in sin;
    int fd, one = 1;

    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
        log_msg(LVL_ERROR, "invalid IPv4 bind address '%s'", addr);
        return -1;
    }
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        log_errno(LVL_ERROR, errno, "socket");
        return -1;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0)
        log_errno(LVL_WARN, errno, "setsockopt(SO_REUSEADDR)");
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        log_errno(LVL_ERROR, errno, "bind %s:%u", addr, (unsigned)port);
        close(fd);
        return -1;
    }
    return fd;
}

static int run_daemon(const struct options *o)
{
    struct server_summary sum;
    struct flusher_totals ft;
    int fds[MAX_RECEIVERS];
    int fd, i;

    log_init("statsd", level_for(LVL_INFO, o->verbosity));
    g_config = o->cfg;

    fd = open_udp_socket(g_config.bind_addr, g_config.port);
    if (fd < 0)
        return EXIT_FAILURE;
    if (server_signals_init() != 0) {
        close(fd);
        return EXIT_FAILURE;
    }
    for (i = 0; i < g_config.receivers; i++)
        fds[i] = fd;            /* all receivers share the socket */
    if (server_start(fds, g_config.receivers) != 0) {
        close(fd);
        return EXIT_FAILURE;
    }
    log_msg(LVL_INFO, "listening on udp %s:%u", g_config.bind_addr,
            (unsigned)g_config.port);

    server_run();
    server_stop();

    server_get_summary(&sum);
    flusher_get_totals(&ft);
    log_summary(&sum, &ft);
    registry_destroy();
    close(fd);
    return EXIT_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* self test                                                                */

struct selftest_expect {
    unsigned long datagrams;      /* reach handle_packet() */
    unsigned long lines;
    unsigned long bad_lines;
    unsigned long dropped;
    double counter_total;
    double timer_count;
};

static int write_selftest_config(const char *path, long interval_ms)
{
    FILE *f = fopen(path, "w");

    if (f == NULL) {
        log_errno(LVL_ERROR, errno, "cannot create %s", path);
        return -1;
    }
    fprintf(f, "# written by statsd --selftest\n"
               "flush_interval = %ld\n"
               "percentile = %g\n"
               "prefix = selftest\n"
               "stale_after = 60\n", interval_ms, interval_ms % 2 ? 99.5 : 90.0);
    if (fclose(f) != 0) {
        log_errno(LVL_ERROR, errno, "writing %s", path);
        return -1;
    }
    return 0;
}

static int send_datagram(int fd, const char *buf, size_t len)
{
    for (;;) {
        ssize_t n = send(fd, buf, len, 0);

        if (n >= 0)
            return (size_t)n == len ? 0 : -1;
        if (errno != EINTR) {
            log_errno(LVL_ERROR, errno, "selftest: send");
            return -1;
        }
    }
}

/* One round of traffic for one receiver. */
static int feed_receiver(int fd, int round, int rx, struct selftest_expect *e)
{
    static const char garbage[] = "this is not a metric\n:1|c\nx:y|c\n";
    char oversized[SELFTEST_MAX_PACKET + 64];
    char good[512];
    int len, k;

    /* 6 lines, 5 valid: 2 counters, 2 gauges, 1 timer, 1 broken line. */
    len = snprintf(good, sizeof good,
                   "selftest.requests:1|c\n"
                   "selftest.bytes:512|c|@0.5\n"
                   "selftest.load:%d|g\n"
                   "selftest.queue:+1|g\n"
                   "selftest.latency:%d.%d|ms\n"
                   "selftest.broken:|c\n",
                   round % 17, (round * 7 + rx) % 300, rx);
    if (send_datagram(fd, good, (size_t)len) != 0)
        return -1;
    e->datagrams++;
    e->lines += 5;
    e->bad_lines += 1;
    e->counter_total += 1 + 512 / 0.5;
    e->timer_count += 1;

    /* Bursts of datagrams over the size limit are dropped unparsed. */
    memset(oversized, 'x', sizeof oversized);
    for (k = 0; k < 3; k++) {
        if (send_datagram(fd, oversized, sizeof oversized) != 0)
            return -1;
        e->dropped++;
    }

    /* A datagram without a single valid line is dropped after parsing. */
    if (round % 2 == rx % 2) {
        if (send_datagram(fd, garbage, sizeof garbage - 1) != 0)
            return -1;
        e->datagrams++;
        e->bad_lines += 3;
        e->dropped++;
    }
    return 0;
}

static int check(const char *what, double got, double want)
{
    if (got == want) {
        log_msg(LVL_DEBUG, "selftest: %s = %.17g", what, got);
        return 0;
    }
    log_msg(LVL_ERROR, "selftest: %s is %.17g, expected %.17g", what, got, want);
    return 1;
}

static int run_selftest(const struct options *o)
{
    struct selftest_expect e;
    struct server_summary sum;
    struct flusher_totals ft;
    struct config cfg = o->cfg;
    struct timespec pause = { 0, 300 * 1000L };
    int feed[SELFTEST_RECEIVERS], rxfd[SELFTEST_RECEIVERS];
    char conf_path[64], out_path[64];
    unsigned long hups = 0, usr1s = 0;
    int i, round, failures = 0, stop = 0;
    pid_t self = getpid();

    log_init("statsd-selftest", level_for(LVL_WARN, o->verbosity));
    memset(&e, 0, sizeof e);
    snprintf(conf_path, sizeof conf_path, "/tmp/statsd-selftest-%ld.conf",
             (long)self);
    snprintf(out_path, sizeof out_path, "/tmp/statsd-selftest-%ld.out",
             (long)self);

    cfg.receivers = SELFTEST_RECEIVERS;
    cfg.max_packet = SELFTEST_MAX_PACKET;
    cfg.flush_interval_ms = 2;
    cfg.stale_after_s = 60;
    snprintf(cfg.output_path, sizeof cfg.output_path, "%s", out_path);
    snprintf(cfg.config_path, sizeof cfg.config_path, "%s", conf_path);
    if (write_selftest_config(conf_path, cfg.flush_interval_ms) != 0)
        return EXIT_FAILURE;
    g_config = cfg;

    for (i = 0; i < SELFTEST_RECEIVERS; i++) {
        int sv[2];

        if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) != 0) {
            log_errno(LVL_ERROR, errno, "socketpair");
            return EXIT_FAILURE;
        }
        feed[i] = sv[0];
        rxfd[i] = sv[1];
    }
    if (server_signals_init() != 0 ||
        server_start(rxfd, SELFTEST_RECEIVERS) != 0)
        return EXIT_FAILURE;

    for (round = 0; round < SELFTEST_ROUNDS && !stop; round++) {
        for (i = 0; i < SELFTEST_RECEIVERS; i++) {
            if (feed_receiver(feed[i], round, i, &e) != 0) {
                stop = 1;
                break;
            }
        }
        if (round % 6 == 3) {
            /* Alternate between 2 and 3 ms, then ask for a reload. */
            if (write_selftest_config(conf_path, 2 + (long)(hups % 2)) != 0)
                stop = 1;
            kill(self, SIGHUP);
            hups++;
        }
        if (round % 4 == 1) {
            kill(self, SIGUSR1);
            usr1s++;
        }
        for (;;) {
            int code = server_wait_signal(0);

            if (code <= 0)
                break;
            if (server_dispatch(code))
                stop = 1;       /* interrupted by the user */
        }
        nanosleep(&pause, NULL);
    }

    server_stop();
    server_get_summary(&sum);
    flusher_get_totals(&ft);
    log_summary(&sum, &ft);

    failures += check("datagrams parsed", (double)sum.packets_received,
                      (double)e.datagrams);
    failures += check("lines parsed", (double)sum.lines_parsed,
                      (double)e.lines);
    failures += check("bad lines", (double)sum.bad_lines, (double)e.bad_lines);
    failures += check("counter total", ft.counter_total, e.counter_total);
    failures += check("timer samples", ft.timer_count_total, e.timer_count);
    failures += check("reloads", (double)sum.reloads, (double)hups);
    failures += check("metrics", (double)registry_size(), 5);
    if (ft.flushes == 0) {
        log_msg(LVL_ERROR, "selftest: the flusher never ran");
        failures++;
    }
    /* Lost updates are possible here: that is the planted race. */
    if (sum.packets_dropped != e.dropped)
        log_msg(LVL_WARN, "selftest: %lu datagrams counted as dropped, "
                "%lu sent", sum.packets_dropped, e.dropped);

    for (i = 0; i < SELFTEST_RECEIVERS; i++) {
        close(feed[i]);
        close(rxfd[i]);
    }
    registry_destroy();
    if (!o->keep_files) {
        unlink(conf_path);
        unlink(out_path);
    }
    printf("selftest: %s (%d rounds, %lu datagrams, %lu flushes, %lu dumps "
           "of %lu requested, %lu reloads)\n", failures ? "FAILED" : "ok",
           round, e.datagrams + e.dropped, ft.flushes, ft.dumps, usr1s,
           sum.reloads);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    struct options opts;

    if (parse_options(argc, argv, &opts) != 0)
        return EXIT_FAILURE;
    if (opts.selftest)
        return run_selftest(&opts);
    return run_daemon(&opts);
}
