/*
 * wordtable.h - the global word-frequency table (counter.c).
 *
 * One hash table for the whole program, protected by a single global
 * mutex.  The counter stage is the only writer; the writer stage and
 * main() read it through the functions below.
 */
#ifndef WORDTABLE_H
#define WORDTABLE_H

#include <stddef.h>

#include "pipeline.h"

struct word_count {
    char            word[WORD_MAX];
    unsigned long   count;
    unsigned long   first_seq;    /* record in which the word first appeared */
};

struct table_info {
    size_t          distinct;
    size_t          buckets;
    unsigned long   total;        /* words counted */
    unsigned long   failed;       /* words lost to allocation failures */
    int             done;         /* the counter has finished */
};

/* Adds every word of a batch; returns the number of words that could not be stored. */
size_t word_table_add_batch(const struct tokbatch *tb);

/* Marks the table complete: no more words will arrive. */
void word_table_finish(void);

void word_table_info(struct table_info *ti);

/* Number of times the table has been grown. */
unsigned word_table_resizes(void);

/*
 * Copies the k most frequent words into out[], most frequent first (ties
 * broken alphabetically) and returns how many were copied.
 */
size_t word_table_topk(struct word_count *out, size_t k);

/* Frees every entry; only once all threads are gone. */
void word_table_destroy(void);

#endif /* WORDTABLE_H */
