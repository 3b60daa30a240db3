/*
 * pipeline.h - data types shared by the stages of the word-frequency pipeline.
 *
 *   reader --q_in--> parser --q_tok--> counter --(word table)--> writer
 *
 * Records and token batches are allocated by the stage that produces them,
 * filled in completely, and then handed to the next stage through a queue.
 * After the hand-off the producer must not touch them again: the consumer
 * owns them and frees them.
 */
#ifndef PIPELINE_H
#define PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WORD_MAX        32      /* longest word kept, including the NUL */
#define BATCH_WORDS     64      /* words per token batch */
#define LINE_MAX_LEN    4096    /* longer input lines are truncated */

/* Run-time configuration.  Filled in by main() before any thread starts. */
struct config {
    char          **inputs;       /* input files; none => generate text */
    int             ninputs;
    const char     *output;       /* NULL => stdout */
    unsigned long   gen_lines;    /* lines to generate without inputs */
    unsigned long   seed;         /* generator seed */
    unsigned long   rate;         /* reader rate limit, lines/s (0 = off) */
    size_t          queue_cap;    /* capacity of each stage queue */
    size_t          topk;         /* number of words in the report */
    size_t          min_len;      /* shorter words are ignored */
    size_t          table_size;   /* initial number of hash buckets */
    unsigned        progress_ms;  /* progress report interval */
    int             dedupe;       /* collapse repeated consecutive lines */
    int             stopwords;    /* drop common English words */
    int             selftest;
};

extern struct config cfg;

/* One input line, produced by the reader and consumed by the parser. */
struct record {
    unsigned long   seq;          /* 0-based position in the stream */
    unsigned long   lineno;       /* line number within its source */
    int             source;       /* index into cfg.inputs, -1 = generated */
    int             truncated;    /* line was longer than LINE_MAX_LEN */
    uint64_t        t_enqueued;   /* monotonic time it entered q_in */
    size_t          len;
    char            text[];       /* len bytes plus a NUL */
};

/* Up to BATCH_WORDS normalised words, produced by the parser. */
struct tokbatch {
    unsigned long   seq;          /* record the words came from */
    size_t          nwords;
    char            words[BATCH_WORDS][WORD_MAX];
};

struct queue;

/* Everything the stage threads need; set up by main() before they start. */
struct pipeline {
    struct queue   *q_in;         /* reader -> parser: struct record * */
    struct queue   *q_tok;        /* parser -> counter: struct tokbatch * */
    FILE          **inputs;       /* opened by main, read and closed by the reader */
    int             ninputs;
    FILE           *out;          /* opened by main, written only by the writer */
};

/* Stage entry points (one thread each). */
void *reader_main(void *arg);
void *parser_main(void *arg);
void *counter_main(void *arg);
void *writer_main(void *arg);

/* reader.c: deterministic text generator, also used by the self-test. */
size_t gen_line(uint64_t *rng, char *buf, size_t cap, size_t *nwords);

#endif /* PIPELINE_H */
