/*
 * pscan.h - options shared by all pscan modules.
 */
#ifndef PSCAN_H
#define PSCAN_H

#define PSCAN_VERSION "1.3.0"

/* What to print for the files that match. */
enum output_mode {
    OUT_LINES,          /* path:lineno:text for every matching line */
    OUT_FILES,          /* -l: only the names of matching files */
    OUT_COUNT           /* -c: path:count for every matching file */
};

struct options {
    const char *pattern;
    int ignore_case;            /* -i */
    int whole_word;             /* -w */
    enum output_mode mode;      /* -l / -c */
    long max_per_file;          /* -m: stop a file after this many hits, 0 = no limit */
    int max_depth;              /* -d: -1 = unlimited */
    int show_hidden;            /* -a: descend into dot-files and dot-directories */
    int follow_links;           /* -L: follow symbolic links */
    unsigned threads;           /* -t */
    unsigned queue_size;        /* -Q */
    unsigned progress_ms;       /* -s: 0 = no periodic progress */
    int verbose;                /* -v, repeatable */
    int selftest;               /* -T / --selftest */
};

/*
 * The parsed command line.  Written by main() (and the self-test set-up)
 * before any thread is started, read-only afterwards.
 */
extern struct options g_opts;

#endif /* PSCAN_H */
