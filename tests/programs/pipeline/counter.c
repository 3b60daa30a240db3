/*
 * counter.c - third stage: the word-frequency hash table and the thread
 * that fills it from q_tok.
 *
 * The table is a chained hash table with a power-of-two number of buckets
 * that doubles whenever the load factor would exceed 3/4.  All of it is
 * protected by table_lock.
 */
#include "pipeline.h"
#include "queue.h"
#include "util.h"
#include "wordtable.h"

#include <stdlib.h>
#include <string.h>

#define MIN_BUCKETS     8
#define LOAD_NUM        3       /* grow above LOAD_NUM/LOAD_DEN entries per bucket */
#define LOAD_DEN        4

struct word_entry {
    struct word_entry *next;
    uint32_t        hash;
    unsigned long   count;
    unsigned long   first_seq;
    char            word[WORD_MAX];
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    struct word_entry **buckets;  /* allocated on first use */
    size_t          nbuckets;     /* always a power of two */
    size_t          nwords;
    unsigned long   total;
    unsigned long   failed;
    unsigned        resizes;
    int             done;
} table;

/* 32-bit FNV-1a. */
static uint32_t hash_word(const char *w)
{
    uint32_t h = 2166136261u;

    for (; *w != '\0'; w++) {
        h ^= (unsigned char)*w;
        h *= 16777619u;
    }
    return h;
}

/* Rehashes into at least want buckets.  Caller holds table_lock. */
static int table_grow(size_t want)
{
    struct word_entry **nb;
    size_t n = MIN_BUCKETS, i;

    while (n < want)
        n <<= 1;
    nb = calloc(n, sizeof *nb);
    if (nb == NULL)
        return -1;

    for (i = 0; i < table.nbuckets; i++) {      // NORACE needs=field: table_lock
        struct word_entry *e = table.buckets[i], *next;     // NORACE needs=field: table_lock

        for (; e != NULL; e = next) {
            next = e->next;                     // NORACE: table_lock
            e->next = nb[e->hash & (n - 1)];    // NORACE: table_lock
            nb[e->hash & (n - 1)] = e;
        }
    }
    if (table.buckets != NULL) {
        free(table.buckets);
        table.resizes++;                        // RACE(resizes): read by word_table_resizes() without table_lock
    }
    table.buckets = nb;                         // NORACE needs=field: table_lock
    table.nbuckets = n;                         // NORACE needs=field: table_lock
    return 0;
}

/* Counts one occurrence of word.  Caller holds table_lock. */
static int table_insert(const char *word, unsigned long seq)
{
    uint32_t h = hash_word(word);
    struct word_entry *e;
    size_t b;

    for (e = table.buckets[h & (table.nbuckets - 1)]; e != NULL; e = e->next) {
        if (e->hash == h && strcmp(e->word, word) == 0) {
            e->count++;                         // NORACE: table_lock
            return 0;
        }
    }

    if ((table.nwords + 1) * LOAD_DEN > table.nbuckets * LOAD_NUM &&   // NORACE needs=field: table_lock
        table_grow(table.nbuckets * 2) != 0)
        log_warn("counter: cannot grow the word table beyond %zu buckets", table.nbuckets);

    e = malloc(sizeof *e);
    if (e == NULL)
        return -1;
    e->hash = h;
    e->count = 1;
    e->first_seq = seq;
    strcpy(e->word, word);
    b = h & (table.nbuckets - 1);
    e->next = table.buckets[b];                 // NORACE needs=field: table_lock
    table.buckets[b] = e;                       // NORACE needs=field: table_lock
    table.nwords++;                             // NORACE needs=field: table_lock
    return 0;
}

size_t word_table_add_batch(const struct tokbatch *tb)
{
    size_t i, failed = 0;

    pthread_mutex_lock(&table_lock);
    if (table.buckets == NULL && table_grow(cfg.table_size) != 0) {
        failed = tb->nwords;
    } else {
        for (i = 0; i < tb->nwords; i++)
            if (table_insert(tb->words[i], tb->seq) != 0)
                failed++;
    }
    table.total += tb->nwords - failed;         // NORACE needs=field: table_lock
    table.failed += failed;                     // NORACE needs=field: table_lock
    pthread_mutex_unlock(&table_lock);
    return failed;
}

void word_table_finish(void)
{
    pthread_mutex_lock(&table_lock);
    table.done = 1;                             // NORACE needs=field: table_lock
    pthread_mutex_unlock(&table_lock);
}

void word_table_info(struct table_info *ti)
{
    pthread_mutex_lock(&table_lock);
    ti->distinct = table.nwords;                // NORACE: table_lock
    ti->buckets = table.nbuckets;               // NORACE: table_lock
    ti->total = table.total;                    // NORACE: table_lock
    ti->failed = table.failed;                  // NORACE: table_lock
    ti->done = table.done;                      // NORACE: table_lock
    pthread_mutex_unlock(&table_lock);
}

/*
 * The resize count only ever goes up and is only shown in progress
 * reports, so it is read without taking table_lock.
 */
unsigned word_table_resizes(void)
{
    return table.resizes;                       // RACE(resizes): incremented under table_lock by the counter
}

/* Does (count, word) rank above wc?  Higher counts first, then A-Z. */
static int ranks_before(unsigned long count, const char *word, const struct word_count *wc)
{
    return count > wc->count || (count == wc->count && strcmp(word, wc->word) < 0);
}

size_t word_table_topk(struct word_count *out, size_t k)
{
    size_t n = 0, i;

    if (k == 0)
        return 0;
    pthread_mutex_lock(&table_lock);
    for (i = 0; i < table.nbuckets; i++) {      // NORACE: table_lock
        const struct word_entry *e;

        for (e = table.buckets[i]; e != NULL; e = e->next) {   // NORACE: table_lock
            unsigned long count = e->count;     // NORACE: table_lock
            size_t j;

            if (n == k && !ranks_before(count, e->word, &out[k - 1]))
                continue;
            /* take a free slot, or evict the current last one, then bubble up */
            j = n < k ? n++ : k - 1;
            while (j > 0 && ranks_before(count, e->word, &out[j - 1])) {
                out[j] = out[j - 1];
                j--;
            }
            strcpy(out[j].word, e->word);
            out[j].count = count;
            out[j].first_seq = e->first_seq;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return n;
}

void word_table_destroy(void)
{
    size_t i;

    pthread_mutex_lock(&table_lock);
    for (i = 0; i < table.nbuckets; i++) {
        struct word_entry *e = table.buckets[i], *next;

        for (; e != NULL; e = next) {
            next = e->next;
            free(e);
        }
    }
    free(table.buckets);
    table.buckets = NULL;
    table.nbuckets = 0;
    table.nwords = 0;
    pthread_mutex_unlock(&table_lock);
}

void *counter_main(void *arg)
{
    struct pipeline *pl = arg;
    struct tokbatch *tb;
    unsigned long batches = 0, lost = 0;

    while ((tb = queue_pop(pl->q_tok)) != NULL) {
        size_t failed = word_table_add_batch(tb);

        if (failed != 0) {
            if (lost == 0)
                log_error("counter: out of memory, words are being dropped");
            lost += failed;
        }
        stats_note_counted(tb->nwords - failed);
        batches++;
        free(tb);
    }

    /* q_tok is closed and drained: every word has been counted */
    word_table_finish();
    log_debug("counter: done, %lu batches, %lu words lost", batches, lost);
    return NULL;
}
