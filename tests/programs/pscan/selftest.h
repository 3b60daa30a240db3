/*
 * selftest.h - built-in end-to-end test (pscan --selftest).
 */
#ifndef PSCAN_SELFTEST_H
#define PSCAN_SELFTEST_H

#include <limits.h>
#include <stdio.h>

#include "stats.h"

#define SELFTEST_NFILES 120

struct selftest {
    char root[64];                      /* mkdtemp() directory */
    char data_dir[128];                 /* the tree that gets scanned */
    FILE *log;                          /* diagnostics and progress go here */
    unsigned signal_every;              /* send SIGUSR1 every N queued files */
    unsigned long signals_sent;
    unsigned long expected_files;       /* text files that contain a match */
    unsigned long long expected_lines;  /* matching lines in those files */
    unsigned long expected_scanned;     /* text files the workers must read */
    long expected[SELFTEST_NFILES];     /* matches per generated file */
    long extra_expected;                /* matches in sub/deep/extra.txt */
    /* Filled in while verifying. */
    long seen[SELFTEST_NFILES];
    long extra_seen;
    unsigned long unexpected;
};

/* The fixed string the generated files are searched for. */
#define SELFTEST_PATTERN "NEEDLE"

/*
 * Create a scratch tree under /tmp and point g_opts at it.  Returns 0, or
 * -1 after logging why.
 */
int selftest_prepare(struct selftest *st);

/* Walker hook: simulates an operator toggling tracing with SIGUSR1. */
void selftest_hook(void *arg, unsigned long nqueued);

/* Compare the scan results with what was generated.  0 = pass. */
int selftest_verify(struct selftest *st, const struct scan_stats *final);

/* Remove the scratch tree. */
void selftest_cleanup(struct selftest *st);

#endif /* PSCAN_SELFTEST_H */
