/*
 * parser.c - second stage: splits records into normalised words.
 *
 * A word is a maximal run of letters and digits, folded to lower case and
 * cut at WORD_MAX-1 characters.  Words shorter than cfg.min_len and, with
 * -x, common English stopwords are dropped.  The survivors are packed into
 * token batches that go to the counter through q_tok.
 */
#include "pipeline.h"
#include "queue.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Sorted for bsearch(). */
static const char *const stopwords[] = {
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as",
    "at", "be", "been", "but", "by", "can", "could", "do", "for", "from",
    "had", "has", "have", "he", "her", "his", "if", "in", "into", "is",
    "it", "its", "more", "no", "not", "of", "on", "one", "or", "our",
    "she", "so", "than", "that", "the", "their", "them", "then", "there", "they",
    "this", "to", "up", "was", "we", "were", "what", "when", "which", "who",
    "will", "with", "would", "you", "your",
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

static int is_stopword(const char *w)
{
    return bsearch(w, stopwords, sizeof stopwords / sizeof stopwords[0],
                   sizeof stopwords[0], cmp_word) != NULL;
}

static const char *source_name(int source)
{
    return source < 0 ? "<generated>" : cfg.inputs[source];
}

/*
 * Collects the words of rec->text starting at offset *pos into a new batch
 * of at most BATCH_WORDS words, and advances *pos past what was consumed.
 * *out is set to the batch, or to NULL if every word was dropped.
 * Returns -1 if out of memory.
 */
static int tokenise(const struct record *rec, size_t *pos, struct parse_counts *pc,
                    struct tokbatch **out)
{
    struct tokbatch *tb;
    const char *text = rec->text;
    size_t len = rec->len;
    size_t i = *pos;

    *out = NULL;
    tb = malloc(sizeof *tb);
    if (tb == NULL)
        return -1;
    tb->seq = rec->seq;                         // NORACE needs=uniqueness: batch not yet published
    tb->nwords = 0;                             // NORACE needs=uniqueness: batch not yet published

    while (i < len && tb->nwords < BATCH_WORDS) {
        char word[WORD_MAX];
        size_t n = 0, k;

        while (i < len && !isalnum((unsigned char)text[i]))
            i++;
        if (i == len)
            break;
        while (i < len && isalnum((unsigned char)text[i])) {
            if (n < WORD_MAX - 1)
                word[n++] = (char)tolower((unsigned char)text[i]);
            i++;
        }
        word[n] = '\0';
        pc->tokens++;

        if (n < cfg.min_len || (cfg.stopwords && is_stopword(word))) {
            pc->dropped++;
            continue;
        }
        for (k = 0; k <= n; k++)
            tb->words[tb->nwords][k] = word[k];     // NORACE needs=uniqueness: batch not yet published
        tb->nwords++;                               // NORACE needs=uniqueness: batch not yet published
    }
    *pos = i;

    if (tb->nwords == 0)
        free(tb);
    else
        *out = tb;
    return 0;
}

/* Tokenises one record and queues the resulting batches.  Returns -1 on OOM. */
static int parse_record(struct pipeline *pl, const struct record *rec, struct parse_counts *pc)
{
    size_t pos = 0;

    while (pos < rec->len) {
        struct tokbatch *tb;

        if (tokenise(rec, &pos, pc, &tb) != 0) {
            log_error("parser: out of memory in record %lu (%s:%lu)",
                      rec->seq, source_name(rec->source), rec->lineno);
            return -1;
        }
        if (tb != NULL) {
            queue_push(pl->q_tok, tb);
            pc->batches++;
        }
    }
    return 0;
}

static int same_text(const struct record *a, const struct record *b)
{
    return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

void *parser_main(void *arg)
{
    struct pipeline *pl = arg;
    struct record *rec, *prev = NULL;
    unsigned long nrec = 0;
    int failed = 0;

    while ((rec = queue_pop(pl->q_in)) != NULL) {
        struct parse_counts pc = { 0, 0, 0 };
        uint64_t now = now_ns();
        uint64_t queued = rec->t_enqueued;      // RACE(stamp): the reader stamps the record after pushing it
        int dup = 0;

        stats_note_wait(now > queued ? now - queued : 0, queue_len(pl->q_in));

        if (rec->truncated)                     // NORACE needs=uniqueness,field: written before the hand-off
            log_debug("parser: record %lu (%s:%lu) was truncated",
                      rec->seq, source_name(rec->source), rec->lineno);

        if (cfg.dedupe && prev != NULL && same_text(prev, rec)) {
            dup = 1;
            log_debug("parser: record %lu (%s:%lu) repeats the previous line",
                      rec->seq, source_name(rec->source), rec->lineno);
        } else if (!failed && parse_record(pl, rec, &pc) != 0) {
            /* keep draining q_in so that the reader does not block forever */
            failed = 1;
        }
        stats_note_parsed(&pc, dup);
        stats.records_in_flight--;              // RACE(inflight): gauge updated without stats_lock
        nrec++;

        /* prev is kept for duplicate detection until the next record arrives */
        free(prev);
        prev = rec;
    }
    free(prev);

    queue_close(pl->q_tok);
    log_debug("parser: done, %lu records", nrec);
    return failed ? (void *)1 : NULL;
}
