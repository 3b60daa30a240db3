/*
 * pipeline - a multi-threaded word-frequency counter.
 *
 *   usage: pipeline [-hquvx] [-k N] [-o FILE] [-g LINES] [-s SEED] [-r RATE]
 *                   [-Q CAP] [-m LEN] [-b BUCKETS] [-p MS] [file...]
 *          pipeline --selftest          (or -T)
 *
 * Four threads, each created once by main() and connected by bounded
 * queues:
 *
 *   reader   reads lines from the input files (or, without files, generates
 *            pseudo-English text) into freshly malloc'd records and pushes
 *            them onto q_in;                                    (reader.c)
 *   parser   pops records, splits them into lower-case words, packs the
 *            words into malloc'd token batches and pushes those onto q_tok;
 *            it frees each record once the next one has arrived (it keeps
 *            the previous line for -u duplicate suppression); (parser.c)
 *   counter  pops batches and counts the words in a global hash table;
 *                                                               (counter.c)
 *   writer   logs progress while the others run and, when the counter is
 *            done, writes the k most frequent words.            (writer.c)
 *
 * Each queue (queue.c) is an object of its own holding a mutex and two
 * condition variables; main() creates q_in and q_tok with two separate
 * queue_new() calls.  End of stream is signalled by queue_close(), which sets
 * the queue's closed flag under its mutex.  Records and batches change owner
 * when they are pushed: the consumer frees them.  main() joins all four
 * threads before it prints the summary.  util.c has logging (global
 * log_lock) and the pipeline statistics (global stats_lock).
 *
 * Build:
 *   gcc -std=gnu11 -Wall -Wextra -pthread -o pipeline *.c
 * ThreadSanitizer self-test:
 *   gcc -std=gnu11 -Wall -Wextra -fsanitize=thread -g -O1 -pthread -o pipeline-tsan *.c
 *   ./pipeline-tsan --selftest
 * The self-test writes a generated 600-line corpus to /tmp, runs the whole
 * pipeline over it with a rate-limited reader (bursts of 40 lines, then a
 * 20 ms pause, so the parser alternates between a backlog and an empty
 * queue), 8-slot queues, an 8-bucket initial word table (it grows 9 times)
 * and a 1 ms progress tick, checks the counts and the report, and removes
 * its files.  It takes about half a second under TSan.
 *
 * ---------------------------------------------------------------------------
 * Planted data races (every racing access line carries a RACE annotation naming it):
 *
 *   inflight  stats.records_in_flight (util.h).  reader.c submit_line()
 *             increments it right after each queue_push() and parser.c
 *             parser_main() decrements it after each record, both without
 *             stats_lock ("it is only a gauge"); util.c stats_view(), called
 *             by the writer, reads it holding stats_lock, which the two
 *             updaters never take.  Concurrent ++/-- lose updates, so the
 *             gauge drifts away from zero.
 *
 *   stamp     struct record::t_enqueued (pipeline.h).  reader.c submit_line()
 *             stamps the record *after* queue_push() has handed it to the
 *             parser, which may already have popped it and be reading the
 *             field in parser_main() - a buffer used after its hand-off.
 *
 *   resizes   table.resizes (counter.c).  table_grow() increments it with
 *             table_lock held (counter thread); word_table_resizes() returns
 *             it without the lock ("only ever grows, only for progress") and
 *             the writer calls it on every tick of its progress loop.
 *
 *   qdepth    struct queue::count of q_in (queue.c).  queue_push() updates
 *             it under q->lock in the reader thread; queue_len() reads it
 *             without the lock, called by parser_main() after every pop to
 *             sample the backlog.  queue_len() is never called on q_tok,
 *             whose count is race-free.  The other lines that touch count
 *             (the locked reads in push/pop and pop's decrement, which runs
 *             in the same thread as queue_len()) do not take part in a racing
 *             pair and are not annotated.
 *
 *   main() also reads stats.records_in_flight and calls word_table_resizes()
 *   after joining every thread; those accesses are ordered by the joins.
 *   The read in print_summary() is left unannotated.
 *
 * Deliberately race-free shared data (// NORACE), and why:
 *
 *   cfg (main.c), log_level/log_progname/log_t0 (util.c), the struct
 *       pipeline in main's frame and its inputs[] array: written by main
 *       before the first pthread_create, only read by the threads.
 *   stats.* other than records_in_flight: the global mutex stats_lock;
 *       main reads them without the lock only after joining every thread
 *       (each created once) - see print_summary().
 *   log_lines (util.c): the global mutex log_lock.
 *   the word table (table.*, every word_entry): the global mutex table_lock.
 *   queue fields slots/head/tail/closed/pushed/full_waits: q->lock, the
 *       mutex inside each queue; each queue is malloc'd once, by its own
 *       queue_new() call in main (not in a loop), and passed by pointer.
 *   records: every field is written in reader.c record_new() right after
 *       malloc, before the pointer is published; after the hand-off only
 *       the parser reads and frees them (t_enqueued excepted, see "stamp").
 *   token batches: written in parser.c tokenise() right after malloc,
 *       before they are published; then only read and freed by the counter.
 *   the writer's top-k array, the reader's line buffer and generator state:
 *       thread-local heap and stack data.
 *
 *   Technique tags on the NORACE lines: needs=uniqueness for the writes into
 *   records and batches before publication (and the parser's read of a
 *   field whose only other access is such a write); needs=joins for main's
 *   post-join reads of stats and for the locked stats accesses they would
 *   otherwise conflict with; needs=sharing for data written by main before
 *   the first pthread_create; needs=context for the queue fields (both queue
 *   locks come from the one pthread_mutex_init in queue_new); needs=field
 *   where the struct also holds a racy field (stats, table, q_in, records).
 * ---------------------------------------------------------------------------
 */
#include "pipeline.h"
#include "queue.h"
#include "util.h"
#include "wordtable.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct config cfg = {
    .inputs      = NULL,
    .ninputs     = 0,
    .output      = NULL,
    .gen_lines   = 100000,
    .seed        = 42,
    .rate        = 0,
    .queue_cap   = 64,
    .topk        = 20,
    .min_len     = 3,
    .table_size  = 1024,
    .progress_ms = 1000,
    .dedupe      = 0,
    .stopwords   = 0,
    .selftest    = 0,
};

/* What the self-test expects to come out of the pipeline. */
struct selftest_plan {
    char            in_path[64];
    char            out_path[64];
    char           *inputs[1];
    unsigned long   lines;
    unsigned long   words;
};

static void usage(FILE *fp, const char *prog)
{
    fprintf(fp,
        "usage: %s [options] [file...]\n"
        "       %s --selftest\n"
        "Counts word frequencies in the files (or in generated text) and prints\n"
        "the most frequent words.\n"
        "\n"
        "  -k N        report the N most frequent words (default %zu)\n"
        "  -o FILE     write the report to FILE instead of standard output\n"
        "  -g LINES    without files, generate LINES lines of text (default %lu)\n"
        "  -s SEED     seed for the generator (default %lu)\n"
        "  -r RATE     read at most RATE lines per second (default: unlimited)\n"
        "  -Q CAP      capacity of each stage queue (default %zu)\n"
        "  -m LEN      ignore words shorter than LEN (default %zu)\n"
        "  -b BUCKETS  initial size of the word table (default %zu)\n"
        "  -p MS       progress report interval in milliseconds (default %u)\n"
        "  -u          collapse repeated consecutive lines\n"
        "  -x          ignore common English words\n"
        "  -q          quiet: warnings and errors only\n"
        "  -v          verbose: debug messages\n"
        "  -T, --selftest  run the built-in self-test (uses /tmp)\n"
        "  -h, --help  show this help\n",
        prog, prog, cfg.topk, cfg.gen_lines, cfg.seed, cfg.queue_cap,
        cfg.min_len, cfg.table_size, cfg.progress_ms);
}

/* Parses a decimal number in [min, max] or exits with a message. */
static unsigned long parse_ulong(const char *arg, char opt, unsigned long min, unsigned long max)
{
    char *end;
    unsigned long v;

    errno = 0;
    v = strtoul(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-' || v < min || v > max)
        die("invalid argument for -%c: '%s' (expected %lu..%lu)", opt, arg, min, max);
    return v;
}

static void parse_args(int argc, char **argv)
{
    static char opt_selftest[] = "-T", opt_help[] = "-h";
    int level = LOG_INFO, c, i;

    log_init(argv[0], level);

    /* long spellings of the two options that have one */
    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--selftest") == 0)
            argv[i] = opt_selftest;
        else if (strcmp(argv[i], "--help") == 0)
            argv[i] = opt_help;
    }

    while ((c = getopt(argc, argv, "b:g:hk:m:o:p:qQ:r:s:Tuvx")) != -1) {
        switch (c) {
        case 'b': cfg.table_size = parse_ulong(optarg, c, 1, 1UL << 26); break;
        case 'g': cfg.gen_lines = parse_ulong(optarg, c, 0, ULONG_MAX); break;
        case 'k': cfg.topk = parse_ulong(optarg, c, 1, 100000); break;
        case 'm': cfg.min_len = parse_ulong(optarg, c, 1, WORD_MAX - 1); break;
        case 'o': cfg.output = optarg; break;
        case 'p': cfg.progress_ms = (unsigned)parse_ulong(optarg, c, 1, 3600000); break;
        case 'q': level = LOG_WARN; break;
        case 'Q': cfg.queue_cap = parse_ulong(optarg, c, 1, 1UL << 20); break;
        case 'r': cfg.rate = parse_ulong(optarg, c, 0, 100000000); break;
        case 's': cfg.seed = parse_ulong(optarg, c, 0, ULONG_MAX); break;
        case 'T': cfg.selftest = 1; break;
        case 'u': cfg.dedupe = 1; break;
        case 'v': level = LOG_DEBUG; break;
        case 'x': cfg.stopwords = 1; break;
        case 'h':
            usage(stdout, argv[0]);
            exit(EXIT_SUCCESS);
        default:
            usage(stderr, argv[0]);
            exit(2);
        }
    }
    cfg.inputs = argv + optind;
    cfg.ninputs = argc - optind;
    if (cfg.selftest && cfg.ninputs > 0)
        die("--selftest takes no input files");
    log_init(argv[0], level);
}

/*
 * Self-test set-up: writes a generated corpus to /tmp and configures a run
 * over it that keeps every stage busy at the same time (rate-limited
 * reader, small queues, a tiny initial table that has to grow many times,
 * a fast progress ticker).
 */
static void selftest_prepare(struct selftest_plan *plan)
{
    uint64_t rng = 20060611;
    char line[LINE_MAX_LEN];
    FILE *fp;
    unsigned long i;

    snprintf(plan->in_path, sizeof plan->in_path, "/tmp/pipeline-selftest-%ld.txt",
             (long)getpid());
    snprintf(plan->out_path, sizeof plan->out_path, "/tmp/pipeline-selftest-%ld.out",
             (long)getpid());
    plan->lines = 600;
    plan->words = 0;

    fp = fopen(plan->in_path, "w");
    if (fp == NULL)
        die("selftest: cannot create %s: %s", plan->in_path, strerror(errno));
    for (i = 0; i < plan->lines; i++) {
        size_t nwords;

        gen_line(&rng, line, sizeof line, &nwords);
        plan->words += nwords;
        fprintf(fp, "%s\n", line);
    }
    if (fclose(fp) != 0)
        die("selftest: cannot write %s: %s", plan->in_path, strerror(errno));

    plan->inputs[0] = plan->in_path;
    cfg.inputs = plan->inputs;
    cfg.ninputs = 1;
    cfg.output = plan->out_path;
    cfg.rate = 2000;
    cfg.queue_cap = 8;
    cfg.topk = 10;
    cfg.min_len = 1;
    cfg.table_size = 8;
    cfg.progress_ms = 1;
    cfg.dedupe = 0;
    cfg.stopwords = 0;
    if (log_level == LOG_INFO)
        log_level = LOG_WARN;   /* a progress line every millisecond is too much */
}

/* Counts the lines of a text file, or returns -1. */
static long count_lines(const char *path)
{
    FILE *fp = fopen(path, "r");
    long n = 0;
    int c;

    if (fp == NULL)
        return -1;
    while ((c = getc(fp)) != EOF)
        if (c == '\n')
            n++;
    fclose(fp);
    return n;
}

/* Checks the results of a self-test run; returns 0 if they are right. */
static int selftest_check(const struct selftest_plan *plan)
{
    struct table_info ti;
    size_t want_rows;
    long rows;
    int bad = 0;

    word_table_info(&ti);
    want_rows = 2 + (ti.distinct < cfg.topk ? ti.distinct : cfg.topk);
    rows = count_lines(plan->out_path);

    if (stats.lines_read != plan->lines) {      // NORACE needs=joins: every thread has been joined
        fprintf(stderr, "selftest: read %lu lines, expected %lu\n", stats.lines_read, plan->lines);
        bad = 1;
    }
    if (stats.words_counted != plan->words) {   // NORACE needs=joins: every thread has been joined
        fprintf(stderr, "selftest: counted %lu words, expected %lu\n",
                stats.words_counted, plan->words);
        bad = 1;
    }
    if (ti.total != plan->words) {
        fprintf(stderr, "selftest: table holds %lu words, expected %lu\n", ti.total, plan->words);
        bad = 1;
    }
    if (rows < 0 || (size_t)rows != want_rows) {
        fprintf(stderr, "selftest: report %s has %ld lines, expected %zu\n",
                plan->out_path, rows, want_rows);
        bad = 1;
    }
    if (word_table_resizes() == 0) {
        fprintf(stderr, "selftest: the word table never grew\n");
        bad = 1;
    }
    printf("selftest: %s (%lu lines, %lu words, %zu distinct, %u resizes)\n",
           bad ? "FAILED" : "ok", plan->lines, plan->words, ti.distinct,
           word_table_resizes());

    unlink(plan->in_path);
    unlink(plan->out_path);
    return bad ? -1 : 0;
}

/* Opens every input file up front, so that a typo fails before any work is done. */
static FILE **open_inputs(void)
{
    FILE **files;
    int i;

    if (cfg.ninputs == 0)
        return NULL;
    files = calloc((size_t)cfg.ninputs, sizeof *files);
    if (files == NULL)
        die("out of memory");
    for (i = 0; i < cfg.ninputs; i++) {
        if (strcmp(cfg.inputs[i], "-") == 0)
            files[i] = stdin;
        else if ((files[i] = fopen(cfg.inputs[i], "r")) == NULL)
            die("cannot open %s: %s", cfg.inputs[i], strerror(errno));
    }
    return files;
}

/* Interprets what pthread_join() said about one stage; returns -1 on failure. */
static int check_join(int rc, void *ret, const char *what)
{
    if (rc != 0) {
        log_error("cannot join the %s thread: %s", what, strerror(rc));
        return -1;
    }
    if (ret != NULL) {
        log_error("the %s stage failed", what);
        return -1;
    }
    return 0;
}

/* Called only after every stage thread has been joined. */
static void print_summary(const struct pipeline *pl, double seconds)
{
    struct table_info ti;
    struct queue_stats qin, qtok;
    unsigned long parsed = stats.records_parsed;    // NORACE needs=joins: every thread has been joined

    word_table_info(&ti);
    queue_get_stats(pl->q_in, &qin);
    queue_get_stats(pl->q_tok, &qtok);

    if (stats.records_in_flight != 0)
        log_warn("in-flight gauge ended at %ld instead of 0", stats.records_in_flight);
    if (log_level < LOG_INFO)
        return;

    fprintf(stderr,
            "lines:   %lu read (%lu bytes, %lu truncated), %lu parsed, %lu duplicates\n",
            stats.lines_read,                       // NORACE needs=joins: every thread has been joined
            stats.bytes_read,                       // NORACE needs=joins: every thread has been joined
            stats.lines_truncated,                  // NORACE needs=joins: every thread has been joined
            parsed,
            stats.duplicates);                      // NORACE needs=joins: every thread has been joined
    fprintf(stderr,
            "words:   %lu tokens, %lu dropped, %lu counted in %lu batches; %zu distinct\n",
            stats.tokens,                           // NORACE needs=joins: every thread has been joined
            stats.words_dropped,                    // NORACE needs=joins: every thread has been joined
            stats.words_counted,                    // NORACE needs=joins: every thread has been joined
            stats.batches,                          // NORACE needs=joins: every thread has been joined
            ti.distinct);
    fprintf(stderr,
            "queues:  %s: %lu pushed, high water %zu, %lu full waits; "
            "%s: %lu pushed, high water %zu, %lu full waits\n",
            queue_name(pl->q_in), qin.pushed, qin.high_water, qin.full_waits,
            queue_name(pl->q_tok), qtok.pushed, qtok.high_water, qtok.full_waits);
    fprintf(stderr,
            "latency: %.1f us average wait in %s, %.1f us max, backlog max %zu\n",
            parsed ? (double)stats.wait_total_ns / 1e3 / (double)parsed : 0.0,   // NORACE needs=joins
            queue_name(pl->q_in),
            (double)stats.wait_max_ns / 1e3,        // NORACE needs=joins: every thread has been joined
            stats.backlog_max);                     // NORACE needs=joins: every thread has been joined
    fprintf(stderr, "table:   %zu buckets after %u resizes\n", ti.buckets, word_table_resizes());
    fprintf(stderr, "time:    %.3f s\n", seconds);
}

int main(int argc, char **argv)
{
    struct selftest_plan plan = { .lines = 0 };
    struct pipeline pl;
    pthread_t t_reader, t_parser, t_counter, t_writer;
    uint64_t t0;
    void *ret;
    int rc, failed = 0;

    parse_args(argc, argv);
    if (cfg.selftest)
        selftest_prepare(&plan);

    pl.ninputs = cfg.ninputs;
    pl.inputs = open_inputs();
    if (cfg.output == NULL)
        pl.out = stdout;
    else if ((pl.out = fopen(cfg.output, "w")) == NULL)
        die("cannot create %s: %s", cfg.output, strerror(errno));

    pl.q_in = queue_new(cfg.queue_cap, "q_in");
    if (pl.q_in == NULL)
        die("cannot create the input queue: %s", strerror(errno));
    pl.q_tok = queue_new(cfg.queue_cap, "q_tok");
    if (pl.q_tok == NULL)
        die("cannot create the token queue: %s", strerror(errno));

    if (pl.ninputs == 0)
        log_info("no input files, generating %lu lines", cfg.gen_lines);
    t0 = now_ns();

    /* consumers first, so that nothing waits on a stage that does not exist yet */
    if ((rc = pthread_create(&t_counter, NULL, counter_main, &pl)) != 0)
        die("cannot start the counter thread: %s", strerror(rc));
    if ((rc = pthread_create(&t_parser, NULL, parser_main, &pl)) != 0)
        die("cannot start the parser thread: %s", strerror(rc));
    if ((rc = pthread_create(&t_writer, NULL, writer_main, &pl)) != 0)
        die("cannot start the writer thread: %s", strerror(rc));
    if ((rc = pthread_create(&t_reader, NULL, reader_main, &pl)) != 0)
        die("cannot start the reader thread: %s", strerror(rc));

    rc = pthread_join(t_reader, &ret);
    failed |= check_join(rc, ret, "reader") != 0;
    rc = pthread_join(t_parser, &ret);
    failed |= check_join(rc, ret, "parser") != 0;
    rc = pthread_join(t_counter, &ret);
    failed |= check_join(rc, ret, "counter") != 0;
    rc = pthread_join(t_writer, &ret);
    failed |= check_join(rc, ret, "writer") != 0;

    print_summary(&pl, (double)(now_ns() - t0) / 1e9);

    if (pl.out != stdout && fclose(pl.out) != 0) {
        log_error("error closing %s: %s", cfg.output, strerror(errno));
        failed = 1;
    }
    if (cfg.selftest && selftest_check(&plan) != 0)
        failed = 1;

    queue_free(pl.q_in, free);
    queue_free(pl.q_tok, free);
    word_table_destroy();
    free(pl.inputs);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
