/*
 * webcache - a small multi-threaded HTTP/1.0 static file server with a
 * shared in-memory file cache (in the spirit of the knot web server).
 *
 * Architecture
 *   main        parses the command line, opens the listening socket and the
 *               access log, creates the single connection queue, starts the
 *               threads, and on shutdown joins them and prints statistics.
 *   listener    (server.c) polls the listening socket, accepts connections
 *               and pushes them onto the connection queue, or answers 503
 *               when max_conns connections are already in flight.
 *   workers     (server.c) a fixed pool; each pops a connection, reads and
 *               parses the request (http.c), serves the file from the cache
 *               (cache.c) or the document root, writes the response, records
 *               statistics (stats.c) and an access-log line (log.c).
 *   logger      (log.c) drains the access-log buffer to the log file.
 *   SIGTERM / SIGINT set a flag; the listener notices it, stops accepting
 *   and closes the queue, which lets the workers finish and exit.
 *
 *   Special URLs: /server-status (counters), /admin/max-conns?value=N
 *   (change the connection limit; loopback only, enabled with -A).
 *
 * Self-test: "./webcache --selftest" (or -T) creates a document root under
 * /tmp, serves it on an ephemeral 127.0.0.1 port with 4 workers and a
 * 6-entry cache, runs 4 client threads x 150 requests (files, cache
 * evictions, status and admin requests, errors), then raises SIGTERM to
 * itself to exercise the signal-driven shutdown, and removes the files.
 *
 * Build:
 *   gcc -std=gnu11 -Wall -Wextra -pthread -o webcache *.c
 * ThreadSanitizer build used to check the planted races:
 *   gcc -std=gnu11 -Wall -Wextra -fsanitize=thread -g -O1 -pthread -o webcache-tsan *.c
 *   ./webcache-tsan --selftest
 *
 * ---------------------------------------------------------------------
 * Planted data races (each access line carries a RACE annotation with the id)
 *
 *   hits       g_stats.hits (stats.c, declared in stats.h).  serve_file()
 *              (server.c) does "g_stats.hits++" after answering from the
 *              cache, without g_stats_lock ("the hot path stays lock-free"),
 *              while other workers do the same and stats_snapshot()
 *              (stats.c, called by the /server-status handler) reads it
 *              under g_stats_lock.  Concurrent increments get lost.
 *
 *   last_used  struct cache_entry.last_used (cache.c).  cache_mark_used()
 *              (cache.c, called by serve_file() in server.c after the
 *              response was sent) writes the LRU timestamp through an entry
 *              pointer obtained from cache_get()/cache_put() after the table
 *              rwlock was released.  pick_victim_locked() (eviction, under
 *              the write lock) and cache_report() (under the read lock)
 *              read it.  The writer holds no lock, so nothing orders the
 *              accesses, and the entry may meanwhile have been recycled for
 *              another file.
 *
 *   shutdown   g_shutting_down (main.c).  Written by the SIGTERM/SIGINT
 *              handler on_terminate() (main.c) and polled without any
 *              synchronisation by listener_main() and worker_main()
 *              (server.c).  volatile sig_atomic_t makes it safe against a
 *              handler interrupting the same thread only, not across threads.
 *
 *   max_conns  g_cfg.max_conns (config.h).  serve_admin() (server.c, run by
 *              a worker) stores the new limit from /admin/max-conns without
 *              a lock while listener_main() reads it on every round of its
 *              accept loop and serve_status()/serve_admin() read it in other
 *              workers.  (The writes by parse_args() and selftest_prepare()
 *              happen before any thread exists and are not part of the race;
 *              they are left unannotated.)
 *
 *   No tsan-skip directive is needed: the self-test raises SIGTERM in the
 *   main thread while the listener polls the flag, so ThreadSanitizer
 *   observes the shutdown race too.
 *
 * Deliberately race-free shared data (access lines annotated NORACE)
 *
 *   connection queue (queue.c): every field of the single struct conn_queue
 *       - allocated once by queue_create() called once from main and
 *       passed by pointer - is accessed with its own q->lock held
 *       (pthread_cond_wait on q->not_empty re-acquires it).
 *   statistics (stats.c): all counters except hits are accessed only under
 *       the global g_stats_lock.
 *   file cache (cache.c): the table g_cache and every field of every entry
 *       except last_used are accessed only under the global rwlock
 *       g_cache.lock (read or write side); entries are allocated under the
 *       write lock and recycled, never freed, while workers run.
 *   access log buffer (log.c): buf, len, stopping and dropped of the global
 *       g_alog are accessed only under the mutex field g_alog.lock.
 *   stderr diagnostics (log.c): serialised by the global g_diag_lock.
 *   configuration g_cfg (except max_conns), g_alog.fd, the diagnostic
 *       level, the server struct and the worker arguments: written by main
 *       before the first pthread_create, only read afterwards.
 *   request buffers, parsed requests, file bodies read on a miss and the
 *       private body copies returned by cache_get(): allocated by one
 *       worker and never published to another thread.
 *   Everything main touches after shutdown is either locked (cache_destroy,
 *       stats_snapshot) or follows the joins of the listener and the logger
 *       (each created once) and of the worker join loop over the array of
 *       the create loop.
 * ---------------------------------------------------------------------
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "config.h"
#include "log.h"
#include "queue.h"
#include "selftest.h"
#include "server.h"
#include "stats.h"

struct config g_cfg;
volatile sig_atomic_t g_shutting_down;

static void on_terminate(int sig)
{
    (void)sig;
    g_shutting_down = 1; // RACE(shutdown): set by the handler, polled by other threads
}

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
            "usage: %s [options]\n"
            "  -d, --docroot DIR        serve files from DIR (required)\n"
            "  -p, --port PORT          listen on PORT (default %d, 0 = any)\n"
            "  -b, --bind ADDR          listen on IPv4 address ADDR (default %s)\n"
            "  -w, --workers N          worker threads (default %d)\n"
            "  -Q, --queue N            connection queue length (default %d)\n"
            "  -m, --max-conns N        connections in flight (default %d)\n"
            "  -c, --cache-entries N    cached files (default %d)\n"
            "  -s, --cache-object KB    largest cached file (default %d KB)\n"
            "  -t, --ttl SECONDS        cache entry lifetime, 0 = forever (default %d)\n"
            "  -i, --io-timeout SECONDS socket timeout (default %d)\n"
            "  -l, --access-log FILE    write an access log to FILE\n"
            "  -A, --admin              enable /admin/ URLs for loopback clients\n"
            "  -v, --verbose            more diagnostics (repeat for debug)\n"
            "  -q, --quiet              only errors\n"
            "  -T, --selftest           run the built-in self-test and exit\n"
            "  -V, --version            print the version\n"
            "  -h, --help               this help\n",
            prog, DEF_PORT, DEF_BIND_ADDR, DEF_WORKERS, DEF_QUEUE_LEN,
            DEF_MAX_CONNS, DEF_CACHE_ENTRIES, DEF_CACHE_OBJECT / 1024,
            DEF_CACHE_TTL, DEF_IO_TIMEOUT);
}

static int parse_int(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "invalid value '%s' for %s (expected %ld..%ld)\n",
                s, opt, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int copy_string(const char *opt, char *dst, size_t size, const char *s)
{
    if (strlen(s) >= size) {
        fprintf(stderr, "argument of %s is too long\n", opt);
        return -1;
    }
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

static int parse_args(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "docroot",       required_argument, NULL, 'd' },
        { "port",          required_argument, NULL, 'p' },
        { "bind",          required_argument, NULL, 'b' },
        { "workers",       required_argument, NULL, 'w' },
        { "queue",         required_argument, NULL, 'Q' },
        { "max-conns",     required_argument, NULL, 'm' },
        { "cache-entries", required_argument, NULL, 'c' },
        { "cache-object",  required_argument, NULL, 's' },
        { "ttl",           required_argument, NULL, 't' },
        { "io-timeout",    required_argument, NULL, 'i' },
        { "access-log",    required_argument, NULL, 'l' },
        { "admin",         no_argument,       NULL, 'A' },
        { "verbose",       no_argument,       NULL, 'v' },
        { "quiet",         no_argument,       NULL, 'q' },
        { "selftest",      no_argument,       NULL, 'T' },
        { "version",       no_argument,       NULL, 'V' },
        { "help",          no_argument,       NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    long v;
    int c;

    g_cfg.port = DEF_PORT;
    snprintf(g_cfg.bind_addr, sizeof g_cfg.bind_addr, "%s", DEF_BIND_ADDR);
    g_cfg.nworkers = DEF_WORKERS;
    g_cfg.queue_len = DEF_QUEUE_LEN;
    g_cfg.max_conns = DEF_MAX_CONNS;
    g_cfg.cache_entries = DEF_CACHE_ENTRIES;
    g_cfg.cache_max_object = DEF_CACHE_OBJECT;
    g_cfg.cache_ttl = DEF_CACHE_TTL;
    g_cfg.io_timeout = DEF_IO_TIMEOUT;
    g_cfg.verbose = DIAG_INFO;

    while ((c = getopt_long(argc, argv, "d:p:b:w:Q:m:c:s:t:i:l:AvqTVh",
                            longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (copy_string("--docroot", g_cfg.docroot, sizeof g_cfg.docroot, optarg) != 0)
                return -1;
            break;
        case 'p':
            if (parse_int("--port", optarg, 0, 65535, &v) != 0)
                return -1;
            g_cfg.port = (int)v;
            break;
        case 'b':
            if (copy_string("--bind", g_cfg.bind_addr, sizeof g_cfg.bind_addr, optarg) != 0)
                return -1;
            break;
        case 'w':
            if (parse_int("--workers", optarg, 1, 256, &v) != 0)
                return -1;
            g_cfg.nworkers = (int)v;
            break;
        case 'Q':
            if (parse_int("--queue", optarg, 1, 65536, &v) != 0)
                return -1;
            g_cfg.queue_len = (int)v;
            break;
        case 'm':
            if (parse_int("--max-conns", optarg, 1, 100000, &v) != 0)
                return -1;
            g_cfg.max_conns = (int)v;
            break;
        case 'c':
            if (parse_int("--cache-entries", optarg, 1, 1000000, &v) != 0)
                return -1;
            g_cfg.cache_entries = (int)v;
            break;
        case 's':
            if (parse_int("--cache-object", optarg, 1, 1024 * 1024, &v) != 0)
                return -1;
            g_cfg.cache_max_object = (size_t)v * 1024;
            break;
        case 't':
            if (parse_int("--ttl", optarg, 0, 86400 * 365, &v) != 0)
                return -1;
            g_cfg.cache_ttl = (int)v;
            break;
        case 'i':
            if (parse_int("--io-timeout", optarg, 1, 3600, &v) != 0)
                return -1;
            g_cfg.io_timeout = (int)v;
            break;
        case 'l':
            if (copy_string("--access-log", g_cfg.access_log, sizeof g_cfg.access_log, optarg) != 0)
                return -1;
            break;
        case 'A':
            g_cfg.allow_admin = 1;
            break;
        case 'v':
            g_cfg.verbose++;
            break;
        case 'q':
            g_cfg.verbose = DIAG_ERR;
            break;
        case 'T':
            g_cfg.selftest = 1;
            break;
        case 'V':
            printf(WEBCACHE_NAME " " WEBCACHE_VERSION "\n");
            exit(EXIT_SUCCESS);
        case 'h':
            usage(stdout, argv[0]);
            exit(EXIT_SUCCESS);
        default:
            usage(stderr, argv[0]);
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
        usage(stderr, argv[0]);
        return -1;
    }
    return 0;
}

/* Check the document root and strip trailing slashes from it. */
static int check_docroot(void)
{
    struct stat st;
    size_t n = strlen(g_cfg.docroot);
    char ebuf[128];

    if (n == 0) {
        fprintf(stderr, "no document root given (-d DIR)\n");
        return -1;
    }
    while (n > 1 && g_cfg.docroot[n - 1] == '/')
        g_cfg.docroot[--n] = '\0';
    if (stat(g_cfg.docroot, &st) != 0) {
        diag(DIAG_ERR, "document root %s: %s", g_cfg.docroot,
             errstr(errno, ebuf, sizeof ebuf));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        diag(DIAG_ERR, "document root %s is not a directory", g_cfg.docroot);
        return -1;
    }
    return 0;
}

static int install_signal_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_terminate;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTERM, &sa, NULL) != 0 || sigaction(SIGINT, &sa, NULL) != 0)
        return -1;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGPIPE, &sa, NULL);
}

int main(int argc, char **argv)
{
    static struct server srv;
    struct worker_arg *wargs;
    struct server_stats st;
    pthread_t *workers;
    pthread_t listener, logger;
    long st_failures = 0;
    int i, rc, status = EXIT_SUCCESS;

    if (parse_args(argc, argv) != 0)
        return EXIT_FAILURE;
    diag_set_level(g_cfg.verbose);

    if (g_cfg.selftest) {
        if (selftest_prepare(&g_cfg) != 0) {
            selftest_cleanup();
            return EXIT_FAILURE;
        }
    } else if (check_docroot() != 0) {
        return EXIT_FAILURE;
    }

    if (server_listen(&srv, g_cfg.bind_addr, g_cfg.port, DEF_BACKLOG) != 0)
        goto fail_early;
    g_cfg.port = srv.port;
    srv.queue = queue_create(g_cfg.queue_len);
    if (srv.queue == NULL) {
        diag(DIAG_ERR, "cannot create the connection queue");
        goto fail_early;
    }
    if (cache_init(g_cfg.cache_entries, g_cfg.cache_max_object, g_cfg.cache_ttl) != 0) {
        diag(DIAG_ERR, "cannot allocate the cache");
        goto fail_early;
    }
    if (accesslog_open(g_cfg.access_log) != 0)
        goto fail_early;
    if (install_signal_handlers() != 0) {
        diag(DIAG_ERR, "cannot install signal handlers");
        goto fail_early;
    }

    workers = calloc((size_t)g_cfg.nworkers, sizeof *workers);
    wargs = calloc((size_t)g_cfg.nworkers, sizeof *wargs);
    if (workers == NULL || wargs == NULL) {
        diag(DIAG_ERR, "out of memory");
        goto fail_early;
    }
    for (i = 0; i < g_cfg.nworkers; i++) {
        wargs[i].id = i;
        wargs[i].srv = &srv;
    }

    /* start the threads: logger, workers, then the listener */
    rc = pthread_create(&logger, NULL, accesslog_thread, NULL);
    if (rc != 0) {
        char ebuf[128];

        diag(DIAG_ERR, "cannot start the logger thread: %s",
             errstr(rc, ebuf, sizeof ebuf));
        goto fail_early;
    }
    for (i = 0; i < g_cfg.nworkers; i++) {
        rc = pthread_create(&workers[i], NULL, worker_main, &wargs[i]);
        if (rc != 0) {
            diag(DIAG_ERR, "cannot start worker %d", i);
            exit(EXIT_FAILURE);
        }
    }
    rc = pthread_create(&listener, NULL, listener_main, &srv);
    if (rc != 0) {
        diag(DIAG_ERR, "cannot start the listener thread");
        exit(EXIT_FAILURE);
    }
    diag(DIAG_INFO, "serving %s on %s:%d with %d workers",
         g_cfg.docroot, g_cfg.bind_addr, g_cfg.port, g_cfg.nworkers);

    if (g_cfg.selftest) {
        st_failures = selftest_run();
        raise(SIGTERM);                 /* shut down the way an operator would */
    }

    /* the listener returns once a signal asked for shutdown */
    pthread_join(listener, NULL);
    for (i = 0; i < g_cfg.nworkers; i++)
        pthread_join(workers[i], NULL);
    accesslog_stop();
    pthread_join(logger, NULL);
    accesslog_close();

    stats_snapshot(&st);
    if (g_cfg.selftest) {
        if (selftest_verdict(st_failures, &st) != 0)
            status = EXIT_FAILURE;
    } else {
        char report[1024];

        if (stats_format(report, sizeof report, &st) > 0)
            diag(DIAG_INFO, "shutdown complete\n%s", report);
    }

    cache_destroy();
    queue_destroy(srv.queue);
    close(srv.listen_fd);
    free(wargs); // NORACE needs=joins: free(wargs) runs after the workers are joined by a loop bounded by g_cfg.nworkers, which nothing writes while they run (selftest_prepare(&g_cfg) writes it before they start)
    free(workers);
    if (g_cfg.selftest)
        selftest_cleanup();
    return status;

fail_early:
    if (g_cfg.selftest)
        selftest_cleanup();
    return EXIT_FAILURE;
}
