/*
 * results.h - the shared list of matches.
 */
#ifndef PSCAN_RESULTS_H
#define PSCAN_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "pscan.h"

/*
 * Record a match.  In line mode (lineno > 0) `text` holds the matching
 * line (textlen bytes, not NUL-terminated) and count is 1; in -l / -c mode
 * lineno is 0, text is NULL and count is the number of matching lines.
 * Thread-safe.  Returns 0, or -1 if out of memory.
 */
int results_add(const char *path, long lineno, const char *text,
                size_t textlen, long count);

typedef void (*results_visit_fn)(void *arg, const char *path, long lineno,
                                 const char *text, long count);

/* Call fn for every result, in insertion order, with the list locked. */
void results_foreach(results_visit_fn fn, void *arg);

/* Print all results sorted by path and line.  Returns the number printed. */
size_t results_print(FILE *out, enum output_mode mode);

/* Total number of matching lines recorded. */
unsigned long long results_total(void);

/* Free every result. */
void results_clear(void);

#endif /* PSCAN_RESULTS_H */
