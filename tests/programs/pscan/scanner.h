/*
 * scanner.h - the pattern matcher and the scanner (worker) threads.
 */
#ifndef PSCAN_SCANNER_H
#define PSCAN_SCANNER_H

#include <stddef.h>

#define MATCHER_MAX_PATTERN 256

/* A compiled fixed-string pattern (Boyer-Moore-Horspool). */
struct matcher {
    unsigned char pat[MATCHER_MAX_PATTERN];     /* case-folded if icase */
    size_t len;
    size_t skip[256];
    int icase;
    int whole_word;
};

/* Compile `pattern`.  Returns 0, or -1 with errno = EINVAL. */
int matcher_compile(struct matcher *m, const char *pattern, int icase,
                    int whole_word);

/* First match of m in text[0..n), or NULL. */
const char *matcher_find(const struct matcher *m, const char *text, size_t n);

/*
 * Compile the pattern the workers use, from g_opts.  Must be called once,
 * before the first worker is started.  Returns 0 or -1.
 */
int scanner_init(void);

/* Thread function of a scanner; `arg` is the struct work_queue to drain. */
void *scanner_worker(void *arg);

#endif /* PSCAN_SCANNER_H */
