/*
 * selftest.c - built-in end-to-end test (pscan --selftest).
 *
 * Generates a small tree under /tmp, scans it with four workers, a tiny
 * queue and a 1 ms progress interval (so that every part of the pipeline
 * runs concurrently), and checks the matches against what was generated.
 * While the walker queues files, the test sends SIGUSR1 to the process
 * every few files to exercise run-time trace toggling.
 *
 * The generated tree:
 *   data/f000.txt .. f119.txt  text files, each bigger than the previous
 *   data/blob.bin              binary (contains NUL bytes and the pattern)
 *   data/.hidden/secret.txt    skipped: hidden directory
 *   data/sub/deep/extra.txt    two matches, three levels down
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "log.h"
#include "pscan.h"
#include "results.h"
#include "selftest.h"

#define FILE_BASE_SIZE 2048
#define FILE_SIZE_STEP 256

static const char *const words[] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    "hotel", "india", "juliet", "kilo", "lima", "mike", "november",
    "needle", "NEEDL", "haystack", "oscar", "papa", "quebec",
};
#define NWORDS (sizeof words / sizeof words[0])

/* Small deterministic generator so every run produces the same files. */
static unsigned next_rand(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0700) < 0 && errno != EEXIST) {
        log_error("selftest: mkdir %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Build one line of text; returns its length (without the newline). */
static size_t make_line(char *line, size_t cap, unsigned *seed, unsigned lineno)
{
    size_t off;
    unsigned nwords = 4 + next_rand(seed) % 8;
    unsigned kind = next_rand(seed) % 24;
    unsigned i;

    off = (size_t)snprintf(line, cap, "%05u:", lineno);
    for (i = 0; i < nwords && off + 16 < cap; i++) {
        const char *w = words[next_rand(seed) % NWORDS];

        /* Plant the pattern in a few different shapes. */
        if (i == 2 && kind == 0)
            w = "NEEDLE";
        else if (i == 3 && kind == 1)
            w = "xNEEDLEx";
        else if (i == 1 && kind == 2)
            w = "NEEDLE-NEEDLE";
        off += (size_t)snprintf(line + off, cap - off, " %s", w);
    }
    return off;
}

/*
 * Write a text file of at least `size` bytes.  Returns the number of lines
 * containing the pattern (found with strstr, independently of the matcher
 * under test), or -1.
 */
static long write_text_file(const char *path, unsigned seed, long size)
{
    char line[256];
    FILE *fp;
    long written = 0, hits = 0;
    unsigned lineno = 0;

    fp = fopen(path, "w");
    if (fp == NULL) {
        log_error("selftest: %s: %s", path, strerror(errno));
        return -1;
    }
    while (written < size) {
        size_t len = make_line(line, sizeof line, &seed, ++lineno);

        if (strstr(line, SELFTEST_PATTERN) != NULL)
            hits++;
        line[len++] = '\n';
        if (fwrite(line, 1, len, fp) != len)
            break;
        written += (long)len;
    }
    if (fclose(fp) != 0 || written < size) {
        log_error("selftest: writing %s failed", path);
        return -1;
    }
    return hits;
}

static int write_binary_file(const char *path)
{
    static const char blob[] = "\x7f" "ELF\0\0\0\0 NEEDLE \0\1\2\3 NEEDLE\n";
    FILE *fp = fopen(path, "wb");
    int i, ok = 1;

    if (fp == NULL) {
        log_error("selftest: %s: %s", path, strerror(errno));
        return -1;
    }
    for (i = 0; i < 64 && ok; i++)
        ok = fwrite(blob, 1, sizeof blob - 1, fp) == sizeof blob - 1;
    if (fclose(fp) != 0 || !ok) {
        log_error("selftest: writing %s failed", path);
        return -1;
    }
    return 0;
}

static int write_small(const char *path, const char *content)
{
    FILE *fp = fopen(path, "w");

    if (fp == NULL) {
        log_error("selftest: %s: %s", path, strerror(errno));
        return -1;
    }
    fputs(content, fp);
    if (fclose(fp) != 0) {
        log_error("selftest: writing %s failed", path);
        return -1;
    }
    return 0;
}

int selftest_prepare(struct selftest *st)
{
    char path[PATH_MAX];
    unsigned i;

    memset(st, 0, sizeof *st);
    snprintf(st->root, sizeof st->root, "/tmp/pscan-selftest.XXXXXX");
    if (mkdtemp(st->root) == NULL) {
        log_error("selftest: mkdtemp: %s", strerror(errno));
        return -1;
    }
    snprintf(st->data_dir, sizeof st->data_dir, "%s/data", st->root);

    snprintf(path, sizeof path, "%s/pscan.log", st->root);
    st->log = fopen(path, "w");
    if (st->log == NULL) {
        log_error("selftest: %s: %s", path, strerror(errno));
        return -1;
    }

    if (make_dir(st->data_dir) < 0)
        return -1;
    for (i = 0; i < SELFTEST_NFILES; i++) {
        snprintf(path, sizeof path, "%s/f%03u.txt", st->data_dir, i);
        st->expected[i] = write_text_file(path, 1000u + i,
                                          FILE_BASE_SIZE + (long)i * FILE_SIZE_STEP);
        if (st->expected[i] < 0)
            return -1;
        if (st->expected[i] > 0)
            st->expected_files++;
        st->expected_lines += (unsigned long long)st->expected[i];
        st->expected_scanned++;
    }

    snprintf(path, sizeof path, "%s/blob.bin", st->data_dir);
    if (write_binary_file(path) < 0)
        return -1;

    snprintf(path, sizeof path, "%s/.hidden", st->data_dir);
    if (make_dir(path) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/.hidden/secret.txt", st->data_dir);
    if (write_small(path, "a NEEDLE nobody should find\n") < 0)
        return -1;

    snprintf(path, sizeof path, "%s/sub", st->data_dir);
    if (make_dir(path) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/sub/deep", st->data_dir);
    if (make_dir(path) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/sub/deep/extra.txt", st->data_dir);
    if (write_small(path, "first NEEDLE\nnothing here\nNEEDLE at start\n") < 0)
        return -1;
    st->extra_expected = 2;
    st->expected_files++;
    st->expected_lines += 2;
    st->expected_scanned++;

    st->signal_every = 3;

    /* A fixed, fully concurrent configuration. */
    g_opts.pattern = SELFTEST_PATTERN;
    g_opts.ignore_case = 0;
    g_opts.whole_word = 0;
    g_opts.mode = OUT_LINES;
    g_opts.max_per_file = 0;
    g_opts.max_depth = -1;
    g_opts.show_hidden = 0;
    g_opts.follow_links = 0;
    g_opts.threads = 4;
    g_opts.queue_size = 8;
    g_opts.progress_ms = 1;
    return 0;
}

void selftest_hook(void *arg, unsigned long nqueued)
{
    struct selftest *st = arg;

    if (st->signal_every == 0 || nqueued % st->signal_every != 0)
        return;
    if (kill(getpid(), SIGUSR1) == 0)
        st->signals_sent++;
}

static void tally(void *arg, const char *path, long lineno, const char *text,
                  long count)
{
    struct selftest *st = arg;
    const char *base = strrchr(path, '/');
    unsigned idx;
    char tail;

    base = base != NULL ? base + 1 : path;
    if (lineno <= 0 || text == NULL || strstr(text, SELFTEST_PATTERN) == NULL) {
        st->unexpected++;
        return;
    }
    if (strcmp(base, "extra.txt") == 0) {
        st->extra_seen += count;
        return;
    }
    if (sscanf(base, "f%3u.tx%c", &idx, &tail) != 2 || tail != 't' ||
        idx >= SELFTEST_NFILES) {
        st->unexpected++;
        return;
    }
    st->seen[idx] += count;
}

int selftest_verify(struct selftest *st, const struct scan_stats *final)
{
    int failures = 0;
    unsigned i;
    const char *largest;

    results_foreach(tally, st);

    for (i = 0; i < SELFTEST_NFILES; i++) {
        if (st->seen[i] != st->expected[i]) {
            log_error("selftest: f%03u.txt: %ld matches, expected %ld",
                      i, st->seen[i], st->expected[i]);
            failures++;
        }
    }
    if (st->extra_seen != st->extra_expected) {
        log_error("selftest: extra.txt: %ld matches, expected %ld",
                  st->extra_seen, st->extra_expected);
        failures++;
    }
    if (st->unexpected > 0) {
        log_error("selftest: %lu unexpected results", st->unexpected);
        failures++;
    }
    if (results_total() != st->expected_lines) {
        log_error("selftest: %llu matching lines, expected %llu",
                  results_total(), st->expected_lines);
        failures++;
    }
    if (final->files_matched != st->expected_files) {
        log_error("selftest: %lu matching files, expected %lu",
                  final->files_matched, st->expected_files);
        failures++;
    }
    if (final->files_binary != 1) {
        log_error("selftest: %lu binary files, expected 1", final->files_binary);
        failures++;
    }

    /* Approximate statistics: report, but do not fail on them. */
    if (final->files_scanned != st->expected_scanned + 1)
        log_warn("selftest: files-scanned counter says %lu, expected %lu",
                 final->files_scanned, st->expected_scanned + 1);
    largest = strrchr(final->largest_path, '/');
    if (largest == NULL || strcmp(largest, "/f119.txt") != 0)
        log_warn("selftest: largest file reported as '%s'", final->largest_path);

    fprintf(stderr, "selftest: %s: %lu files, %llu matching lines, %lu signals\n",
            failures == 0 ? "PASS" : "FAIL", st->expected_scanned,
            st->expected_lines, st->signals_sent);
    return failures == 0 ? 0 : -1;
}

/* rm -rf for the scratch tree (no symlinks in it, so no surprises). */
static void remove_tree(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    char child[PATH_MAX];

    if (lstat(path, &st) < 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) < 0)
            log_warn("selftest: unlink %s: %s", path, strerror(errno));
        return;
    }
    d = opendir(path);
    if (d != NULL) {
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            remove_tree(child);
        }
        closedir(d);
    }
    if (rmdir(path) < 0)
        log_warn("selftest: rmdir %s: %s", path, strerror(errno));
}

void selftest_cleanup(struct selftest *st)
{
    /*
     * The logger still writes to st->log, so it stays open (the file is
     * unlinked below; it is closed when the process exits).
     */
    if (st->log != NULL)
        fflush(st->log);
    if (st->root[0] != '\0' && getenv("PSCAN_KEEP_SELFTEST") == NULL)
        remove_tree(st->root);
}
