/*
 * reader.c - first stage: turns input lines into records on q_in.
 *
 * Lines come either from the input files opened by main() or, when there
 * are none, from a deterministic text generator (handy for benchmarks and
 * for the self-test).  Each line becomes a freshly allocated record that
 * is handed to the parser through q_in; the parser frees it.
 */
#include "pipeline.h"
#include "queue.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* With a rate limit, the reader works in bursts of 1/THROTTLE_HZ seconds. */
#define THROTTLE_HZ     50

struct reader_state {
    unsigned long   seq;          /* records queued so far */
};

/* ---- text generator ----------------------------------------------------- */

/* A handful of very frequent words, roughly in frequency order. */
static const char *const common_words[] = {
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as",
    "was", "with", "be", "by", "on", "not", "he", "this", "are", "or",
    "his", "from", "at", "which", "but", "have", "an", "had", "they", "you",
    "were", "their", "one", "all", "we", "can", "her", "has", "there", "been",
};

/* Syllables for the long tail of made-up words. */
static const char *const syllables[] = {
    "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "da",
    "fi", "go", "hu", "ja", "ke", "lan", "mor", "nis", "pel", "quor",
};

#define NCOMMON    (sizeof common_words / sizeof common_words[0])
#define NSYLLABLES (sizeof syllables / sizeof syllables[0])

/* Appends s to buf at *len if it fits; returns 0 or -1 when full. */
static int append(char *buf, size_t cap, size_t *len, const char *s)
{
    size_t n = strlen(s);

    if (*len + n + 1 > cap)
        return -1;
    memcpy(buf + *len, s, n + 1);
    *len += n;
    return 0;
}

/*
 * Generates one line of pseudo-English into buf (NUL-terminated) and
 * returns its length.  *nwords receives the number of words in it, which
 * is exactly what the tokeniser will find with min_len 1 and no stopwords.
 */
size_t gen_line(uint64_t *rng, char *buf, size_t cap, size_t *nwords)
{
    size_t len = 0, n = 0;
    unsigned want = 4 + (unsigned)(rng_next(rng) % 9);

    buf[0] = '\0';
    while (n < want) {
        char word[WORD_MAX];
        uint64_t r = rng_next(rng);
        size_t wl = 0;

        if (r % 100 < 45) {
            /* skewed towards the front of the list */
            size_t i = (size_t)(r >> 8) % NCOMMON;
            i = (size_t)(r >> 24) % (i + 1);
            wl = strlen(common_words[i]);
            memcpy(word, common_words[i], wl + 1);
        } else {
            unsigned nsyl = 2 + (unsigned)((r >> 8) % 2), k;
            for (k = 0; k < nsyl; k++) {
                const char *s = syllables[(r >> (16 + 5 * k)) % NSYLLABLES];
                size_t sl = strlen(s);
                memcpy(word + wl, s, sl + 1);
                wl += sl;
            }
        }
        if (n == 0)
            word[0] = (char)toupper((unsigned char)word[0]);
        if (n > 0 && append(buf, cap, &len, " ") != 0)
            break;
        if (append(buf, cap, &len, word) != 0)
            break;
        n++;
        if (n < want && (r >> 60) == 0 && append(buf, cap, &len, ",") != 0)
            break;
    }
    append(buf, cap, &len, ".");
    *nwords = n;
    return len;
}

/* ---- records ------------------------------------------------------------ */

/*
 * Allocates a record holding a copy of line[0..len).  Control characters
 * (tabs, form feeds, stray escape codes) are folded into blanks so that
 * later stages only ever see printable text and spaces.
 */
static struct record *record_new(const char *line, size_t len, unsigned long seq,
                                 unsigned long lineno, int source, int truncated)
{
    struct record *rec;
    size_t i;

    rec = malloc(sizeof *rec + len + 1);
    if (rec == NULL)
        return NULL;
    rec->seq = seq;                             // NORACE needs=uniqueness: not yet published
    rec->lineno = lineno;                       // NORACE needs=uniqueness: not yet published
    rec->source = source;                       // NORACE needs=uniqueness: not yet published
    rec->truncated = truncated;                 // NORACE needs=uniqueness: not yet published
    rec->len = len;                             // NORACE needs=uniqueness: not yet published
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        rec->text[i] = iscntrl(c) ? ' ' : (char)c;   // NORACE needs=uniqueness: not yet published
    }
    rec->text[len] = '\0';                      // NORACE needs=uniqueness: not yet published
    return rec;
}

/*
 * Crude rate limit for replaying input: after every burst of lines, sleep
 * for as long as the burst may take at cfg.rate lines/s.  Time spent
 * reading is not subtracted, so the real rate stays at or below the limit
 * (nanosleep is far too coarse to pace single lines).
 */
static void throttle(const struct reader_state *rs)
{
    unsigned long burst;

    if (cfg.rate == 0)                          // NORACE needs=sharing: configuration, written before the threads start
        return;
    burst = cfg.rate / THROTTLE_HZ;
    if (burst == 0)
        burst = 1;
    if (rs->seq % burst == 0)
        sleep_ns((uint64_t)burst * 1000000000u / cfg.rate);
}

/* Wraps one line into a record and queues it.  Returns -1 on failure. */
static int submit_line(struct pipeline *pl, struct reader_state *rs, const char *line,
                       size_t len, unsigned long lineno, int source, int truncated)
{
    struct record *rec;

    stats_note_read(len, truncated);
    rec = record_new(line, len, rs->seq, lineno, source, truncated);
    if (rec == NULL) {
        log_error("reader: out of memory at line %lu", lineno);
        return -1;
    }
    queue_push(pl->q_in, rec);
    /*
     * Stamp the record once it is actually in the queue: time spent
     * blocked on a full queue is back-pressure, not queueing latency.
     */
    rec->t_enqueued = now_ns();                 // RACE(stamp): the parser may already own and read the record
    stats.records_in_flight++;                  // RACE(inflight): gauge updated without stats_lock
    rs->seq++;
    throttle(rs);
    return 0;
}

/* Reads one input stream to the end, then closes it. */
static int read_stream(struct pipeline *pl, struct reader_state *rs, int idx)
{
    FILE *fp = pl->inputs[idx];                 // NORACE needs=sharing: set up by main before the threads start
    const char *name = cfg.inputs[idx];
    char line[LINE_MAX_LEN];
    unsigned long lineno = 0;
    int ret = 0;

    log_debug("reader: reading %s", name);
    while (fgets(line, sizeof line, fp) != NULL) {
        size_t len = strlen(line);
        int truncated = 0;

        lineno++;
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        } else if (!feof(fp)) {
            /* overlong line: keep the head, skip the rest */
            int c;

            truncated = 1;
            while ((c = getc(fp)) != EOF && c != '\n')
                ;
            log_warn("%s:%lu: line longer than %d bytes truncated",
                     name, lineno, LINE_MAX_LEN - 1);
        }
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if (submit_line(pl, rs, line, len, lineno, idx, truncated) != 0) {
            ret = -1;
            break;
        }
    }
    if (ferror(fp)) {
        log_error("reader: read error on %s", name);
        ret = -1;
    }
    fclose(fp);
    log_debug("reader: %s: %lu lines", name, lineno);
    return ret;
}

/* Feeds cfg.gen_lines generated lines. */
static int generate(struct pipeline *pl, struct reader_state *rs)
{
    uint64_t rng = cfg.seed ? cfg.seed : 1;     // NORACE needs=sharing: configuration, written before the threads start
    char line[LINE_MAX_LEN];
    unsigned long n;

    log_debug("reader: generating %lu lines (seed %lu)", cfg.gen_lines, cfg.seed);
    for (n = 1; n <= cfg.gen_lines; n++) {
        size_t nwords;
        size_t len = gen_line(&rng, line, sizeof line, &nwords);

        if (submit_line(pl, rs, line, len, n, -1, 0) != 0)
            return -1;
    }
    return 0;
}

void *reader_main(void *arg)
{
    struct pipeline *pl = arg;
    struct reader_state rs;
    int i, failed = 0;

    rs.seq = 0;

    if (pl->ninputs == 0) {
        failed = generate(pl, &rs) != 0;
    } else {
        for (i = 0; i < pl->ninputs; i++) {
            if (read_stream(pl, &rs, i) != 0) {
                failed = 1;
                /* close what we are not going to read */
                for (i++; i < pl->ninputs; i++)
                    fclose(pl->inputs[i]);
                break;
            }
        }
    }

    /* end of stream: the parser drains q_in and then sees NULL */
    queue_close(pl->q_in);
    log_debug("reader: done, %lu records queued%s", rs.seq, failed ? " (input error)" : "");
    return failed ? (void *)1 : NULL;
}
