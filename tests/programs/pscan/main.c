/*
 * pscan - parallel fixed-string file scanner (find | xargs fgrep, threaded)
 *
 * pscan walks one or more directory trees, and searches every regular file
 * it finds for a fixed string, line by line.  It is organised as a small
 * pipeline:
 *
 *   main thread     parses the options, then walks the trees (walker.c,
 *                   scandir + lstat) and pushes every regular-file path
 *                   into a bounded work queue (queue.c); closes the queue
 *                   when the walk is done, joins everybody, prints the
 *                   sorted results (results.c).
 *   N scanners      (scanner.c, created in a loop, joined in a loop over
 *                   the same array) pop paths, read each file in 64 KiB
 *                   chunks, split it into lines, run a Boyer-Moore-Horspool
 *                   matcher over each line, append matches to the shared
 *                   result list and update the shared counters (stats.c).
 *   reporter        (stats.c, created once, joined once) prints a progress
 *                   line every -s milliseconds and takes the final snapshot
 *                   of the counters.
 *   SIGUSR1 handler toggles per-file / per-match tracing at run time.
 *
 * Usage: pscan [-t N] [-d DEPTH] [-i] [-w] [-l|-c] [-m N] [-Q N] [-s MS]
 *              [-a] [-L] [-v...] PATTERN [PATH...]
 *        pscan --selftest          (or -T)
 *
 * Build:
 *   gcc -std=gnu11 -Wall -Wextra -pthread *.c -o pscan
 * ThreadSanitizer check of the planted races:
 *   gcc -std=gnu11 -Wall -Wextra -fsanitize=thread -g -O1 -pthread *.c -o pscan
 *   ./pscan --selftest
 * The self-test (selftest.c) generates 123 files under /tmp/pscan-selftest.*,
 * scans them with 4 scanners, an 8-slot queue and a 1 ms progress interval,
 * sends SIGUSR1 to itself every third queued file, checks the matches and
 * removes the tree; it takes well under a second even under TSan.
 *
 * Planted data races (the access lines carry RACE(<id>) annotations):
 *
 *   files_scanned  g_stats.files_scanned (stats.h).  scan_file() in
 *                  scanner.c bumps it after releasing g_stats_lock ("hot
 *                  counter, keep it off the lock"), so scanners race with
 *                  each other and with stats_snapshot() in the reporter,
 *                  which reads it under g_stats_lock.  Lost updates make
 *                  the final "files scanned" figure wrong.
 *   largest        g_stats.largest_size.  stats_note_size() in stats.c
 *                  compares against it without the lock (fast path), then
 *                  takes g_stats_lock and overwrites it without checking
 *                  again: check-then-act with the lock released in between.
 *                  The unlocked read races with other scanners' locked
 *                  writes, and a smaller file can overwrite a larger one.
 *                  (stats_snapshot() also reads it, under the lock.)
 *   q_closed       the queue's closed flag (queue.c).  queue_close() sets
 *                  it under q->lock and queue_pop() tests it under q->lock,
 *                  but queue_closed(), used by the reporter's status line,
 *                  reads it without the lock ("it only goes 0 -> 1").
 *   trace_sig      g_trace_on (log.c).  Toggled by the SIGUSR1 handler
 *                  on_sigusr1() in main.c, read without any synchronisation
 *                  by every scanner in scan_file() (scanner.c).  The handler
 *                  runs asynchronously to the scanners (in the self-test it
 *                  runs in the main thread, which sends itself the signal).
 *
 * Shared data that is deliberately race-free (NORACE annotations), and why:
 *
 *   work queue     struct work_queue: ring indices, count, slots, counters.
 *                  Every access holds q->lock, a mutex inside the single
 *                  queue object, malloc'ed once by queue_create() (called
 *                  once, from run_scan()) and passed to the threads by
 *                  pointer.  q->capacity and q->slots are written only in
 *                  queue_create(), before any thread exists.
 *   statistics     every other g_stats field (bytes, matches, files
 *                  matched, binary files, errors, largest_path): always
 *                  accessed with the global mutex g_stats_lock held.
 *   results        the result list in results.c (head/tail/n/lines) and
 *                  the links between records: always under g_results.lock,
 *                  a mutex field of a global struct.  A record's own fields
 *                  are filled in by the scanner through the pointer fresh
 *                  from malloc(), before the record is linked in
 *                  (uniqueness); afterwards they are only read, by main,
 *                  under the lock and after the scanners were joined.
 *   reporter       g_rep.stop: under g_rep.lock (mutex field of a global
 *                  struct; pthread_cond_timedwait re-acquires it).
 *                  g_rep.queue/interval_ms/out/started: written by
 *                  reporter_start() before the reporter (the first thread)
 *                  is created.  g_rep.final: written by the reporter just
 *                  before it exits, read by reporter_stop() after
 *                  pthread_join() of that once-created thread.
 *   options        g_opts (main.c), the compiled pattern g_matcher
 *                  (scanner.c) and the logger settings (log.c): written by
 *                  main() before the first pthread_create, read-only after.
 *   per-thread     each scanner's path and read buffers, line reader and
 *                  counters live on its own stack; the walker state lives
 *                  on main's stack.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "pscan.h"
#include "queue.h"
#include "results.h"
#include "scanner.h"
#include "selftest.h"
#include "stats.h"
#include "walker.h"

#define MAX_THREADS 256
#define MAX_QUEUE 65536
#define DEFAULT_QUEUE 64

struct options g_opts = {
    .pattern = NULL,
    .mode = OUT_LINES,
    .max_depth = -1,
    .queue_size = DEFAULT_QUEUE,
};

/* Everything run_scan() found out, for the summary and the self-test. */
struct scan_report {
    struct scan_stats stats;
    struct walk_stats walk;
    struct queue_stats queue;
    int root_errors;
    double seconds;
};

static const struct option long_options[] = {
    { "threads",            required_argument, NULL, 't' },
    { "max-depth",          required_argument, NULL, 'd' },
    { "ignore-case",        no_argument,       NULL, 'i' },
    { "word-regexp",        no_argument,       NULL, 'w' },
    { "files-with-matches", no_argument,       NULL, 'l' },
    { "count",              no_argument,       NULL, 'c' },
    { "max-count",          required_argument, NULL, 'm' },
    { "queue-size",         required_argument, NULL, 'Q' },
    { "progress",           required_argument, NULL, 's' },
    { "all",                no_argument,       NULL, 'a' },
    { "follow",             no_argument,       NULL, 'L' },
    { "verbose",            no_argument,       NULL, 'v' },
    { "selftest",           no_argument,       NULL, 'T' },
    { "help",               no_argument,       NULL, 'h' },
    { "version",            no_argument,       NULL, 'V' },
    { NULL, 0, NULL, 0 }
};

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
            "usage: %s [options] PATTERN [PATH...]\n"
            "       %s --selftest\n"
            "\n"
            "Search the regular files below each PATH (default: .) for the fixed\n"
            "string PATTERN, using a pool of scanner threads.\n"
            "\n"
            "  -t, --threads=N          scanner threads (default: one per CPU)\n"
            "  -d, --max-depth=N        descend at most N directory levels\n"
            "  -i, --ignore-case        ASCII case-insensitive matching\n"
            "  -w, --word-regexp        match whole words only\n"
            "  -l, --files-with-matches print only the names of matching files\n"
            "  -c, --count              print the number of matching lines per file\n"
            "  -m, --max-count=N        stop reading a file after N matching lines\n"
            "  -Q, --queue-size=N       paths buffered between walker and scanners (%d)\n"
            "  -s, --progress=MS        print a progress line every MS milliseconds\n"
            "  -a, --all                also search hidden files and directories\n"
            "  -L, --follow             follow symbolic links\n"
            "  -v, --verbose            more diagnostics (repeatable)\n"
            "  -T, --selftest           run the built-in self-test and exit\n"
            "  -h, --help               show this help and exit\n"
            "  -V, --version            show the version and exit\n"
            "\n"
            "Send SIGUSR1 to a running pscan to toggle per-file tracing.\n"
            "Exit status: 0 if something matched, 1 if nothing did, 2 on errors.\n",
            prog, prog, DEFAULT_QUEUE);
}

static long parse_number(const char *arg, long min, long max, const char *what)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "pscan: invalid %s '%s' (expected %ld..%ld)\n",
                what, arg, min, max);
        exit(2);
    }
    return v;
}

/* Parse the command line into g_opts; returns the index of the first path. */
static int parse_args(int argc, char **argv)
{
    int c;

    while ((c = getopt_long(argc, argv, "t:d:iwlcm:Q:s:aLvThV",
                            long_options, NULL)) != -1) {
        switch (c) {
        case 't':
            g_opts.threads = (unsigned)parse_number(optarg, 1, MAX_THREADS, "thread count");
            break;
        case 'd':
            g_opts.max_depth = (int)parse_number(optarg, 0, 4096, "depth");
            break;
        case 'i':
            g_opts.ignore_case = 1;
            break;
        case 'w':
            g_opts.whole_word = 1;
            break;
        case 'l':
            g_opts.mode = OUT_FILES;
            break;
        case 'c':
            g_opts.mode = OUT_COUNT;
            break;
        case 'm':
            g_opts.max_per_file = parse_number(optarg, 1, 1L << 30, "match limit");
            break;
        case 'Q':
            g_opts.queue_size = (unsigned)parse_number(optarg, 1, MAX_QUEUE, "queue size");
            break;
        case 's':
            g_opts.progress_ms = (unsigned)parse_number(optarg, 0, 3600000, "interval");
            break;
        case 'a':
            g_opts.show_hidden = 1;
            break;
        case 'L':
            g_opts.follow_links = 1;
            break;
        case 'v':
            g_opts.verbose++;
            break;
        case 'T':
            g_opts.selftest = 1;
            break;
        case 'h':
            usage(stdout, argv[0]);
            exit(0);
        case 'V':
            printf("pscan %s\n", PSCAN_VERSION);
            exit(0);
        default:
            usage(stderr, argv[0]);
            exit(2);
        }
    }

    if (g_opts.selftest) {
        if (optind != argc) {
            fprintf(stderr, "pscan: --selftest takes no arguments\n");
            exit(2);
        }
        return optind;
    }
    if (optind >= argc) {
        fprintf(stderr, "pscan: no pattern given\n");
        usage(stderr, argv[0]);
        exit(2);
    }
    g_opts.pattern = argv[optind++];
    return optind;
}

static unsigned default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    if (n < 1)
        return 4;
    if (n > 32)
        return 32;
    return (unsigned)n;
}

/* SIGUSR1: toggle per-file tracing in the scanners. */
static void on_sigusr1(int sig)
{
    (void)sig;
    g_trace_on = !g_trace_on; // RACE(trace_sig): handler vs. the scanners' unlocked reads
}

static void install_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGUSR1, &sa, NULL) < 0)
        die("sigaction(SIGUSR1): %s", strerror(errno));
}

static double now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The whole pipeline: one queue, one reporter, N scanners fed by the
 * walker running in this thread.
 */
static void run_scan(char *const *roots, int nroots, walk_hook_fn hook,
                     void *hook_arg, FILE *progress, struct scan_report *rep)
{
    struct work_queue *q;
    struct walker w;
    pthread_t *workers;
    unsigned i, nworkers = g_opts.threads;
    double t0 = now_seconds();
    int k, rc;

    memset(rep, 0, sizeof *rep);

    q = queue_create(g_opts.queue_size);
    if (q == NULL)
        die("cannot create the work queue: %s", strerror(errno));
    workers = calloc(nworkers, sizeof *workers);
    if (workers == NULL)
        die("out of memory");

    if (reporter_start(q, g_opts.progress_ms, progress) != 0)
        exit(2);
    install_signals();

    for (i = 0; i < nworkers; i++) {
        rc = pthread_create(&workers[i], NULL, scanner_worker, q);
        if (rc != 0)
            die("cannot start scanner thread %u: %s", i, strerror(rc));
    }
    log_info("scanning for \"%s\" with %u threads", g_opts.pattern, nworkers);

    walker_init(&w, q, g_opts.max_depth, g_opts.show_hidden, g_opts.follow_links);
    if (hook != NULL)
        walker_set_hook(&w, hook, hook_arg);
    for (k = 0; k < nroots; k++)
        if (walk_path(&w, roots[k]) < 0)
            rep->root_errors++;
    queue_close(q);
    log_debug("walk finished: %lu files queued", w.stats.files);

    for (i = 0; i < nworkers; i++) {
        rc = pthread_join(workers[i], NULL);
        if (rc != 0)
            die("cannot join scanner thread %u: %s", i, strerror(rc));
    }
    reporter_stop(&rep->stats);

    rep->walk = w.stats;
    queue_get_stats(q, &rep->queue);
    rep->seconds = now_seconds() - t0;

    free(workers);
    queue_destroy(q);
}

static void log_summary(const struct scan_report *rep)
{
    const struct scan_stats *s = &rep->stats;

    log_info("scanned %lu files (%.1f MiB) in %.2fs: %llu matching lines in %lu files",
             s->files_scanned, (double)s->bytes_scanned / (1024.0 * 1024.0),
             rep->seconds, s->matches, s->files_matched);
    log_info("walked %lu directories; %lu entries skipped, %lu binary files, %lu errors",
             rep->walk.dirs, rep->walk.skipped, s->files_binary,
             rep->walk.errors + s->errors);
    if (s->largest_path[0] != '\0')
        log_info("largest file: %s (%lld bytes)", s->largest_path, s->largest_size);
    log_info("queue: %lu paths, high water %zu of %u, walker blocked %lu times",
             rep->queue.pushed, rep->queue.high_water, g_opts.queue_size,
             rep->queue.full_waits);
}

int main(int argc, char **argv)
{
    static char dot[] = ".";
    char *default_roots[] = { dot };
    char *selftest_roots[1];
    char *const *roots;
    int first, nroots, status;
    struct selftest st;
    struct scan_report rep;
    walk_hook_fn hook = NULL;
    void *hook_arg = NULL;
    FILE *progress = stderr;

    first = parse_args(argc, argv);
    log_init(argv[0], NULL, g_opts.verbose);
    if (g_opts.threads == 0)
        g_opts.threads = default_threads();

    if (g_opts.selftest) {
        if (selftest_prepare(&st) < 0) {
            selftest_cleanup(&st);
            return 2;
        }
        log_init(argv[0], st.log, g_opts.verbose + 2);
        progress = st.log;
        selftest_roots[0] = st.data_dir;
        roots = selftest_roots;
        nroots = 1;
        hook = selftest_hook;
        hook_arg = &st;
    } else if (first < argc) {
        roots = argv + first;
        nroots = argc - first;
    } else {
        roots = default_roots;
        nroots = 1;
    }

    if (scanner_init() < 0)
        return 2;

    run_scan(roots, nroots, hook, hook_arg, progress, &rep);
    log_summary(&rep);

    if (g_opts.selftest) {
        status = selftest_verify(&st, &rep.stats) == 0 ? 0 : 1;
        selftest_cleanup(&st);
    } else {
        results_print(stdout, g_opts.mode);
        if (fflush(stdout) != 0) {
            log_error("writing the results: %s", strerror(errno));
            status = 2;
        } else if (rep.root_errors > 0 || rep.walk.errors > 0 || rep.stats.errors > 0) {
            status = 2;
        } else {
            status = rep.stats.files_matched > 0 ? 0 : 1;
        }
    }
    results_clear();
    return status;
}
