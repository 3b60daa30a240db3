/*
 * writer.c - last stage: periodic progress reports while the pipeline
 * runs, and the top-k word list once the counter has finished.
 */
#include "pipeline.h"
#include "util.h"
#include "wordtable.h"

#include <stdlib.h>

#define MAX_SLICE_NS    50000000u      /* check for completion at least every 50 ms */

static void report_progress(uint64_t elapsed_ns, uint64_t dt_ns, unsigned long lines_before,
                            const struct stats_view *sv, const struct table_info *ti,
                            unsigned resizes)
{
    double rate = dt_ns > 0 ? (double)(sv->lines_read - lines_before) * 1e9 / (double)dt_ns : 0.0;

    log_info("progress %.1fs: %lu lines (%.0f/s), %ld in flight, backlog max %zu, "
             "%lu words, %zu distinct, %zu buckets after %u resizes",
             (double)elapsed_ns / 1e9, sv->lines_read, rate, sv->in_flight,
             sv->backlog_max, sv->words_counted, ti->distinct, ti->buckets, resizes);
}

static int write_report(FILE *out, const struct table_info *ti)
{
    struct word_count *top;
    size_t n, i;

    top = calloc(cfg.topk, sizeof *top);        // NORACE needs=sharing: configuration, written before the threads start
    if (top == NULL) {
        log_error("writer: out of memory for the top-%zu list", cfg.topk);
        return -1;
    }
    n = word_table_topk(top, cfg.topk);

    fprintf(out, "# top %zu of %zu distinct words, %lu words in total\n",
            n, ti->distinct, ti->total);
    fprintf(out, "# %4s  %-*s %10s %7s %10s\n", "rank", WORD_MAX - 1, "word",
            "count", "share", "first");
    for (i = 0; i < n; i++) {
        double share = ti->total ? 100.0 * (double)top[i].count / (double)ti->total : 0.0;

        fprintf(out, "%6zu  %-*s %10lu %6.2f%% %10lu\n", i + 1, WORD_MAX - 1,
                top[i].word, top[i].count, share, top[i].first_seq + 1);
    }
    free(top);

    if (fflush(out) != 0 || ferror(out)) {
        log_error("writer: error writing the report");
        return -1;
    }
    return 0;
}

void *writer_main(void *arg)
{
    struct pipeline *pl = arg;
    struct table_info ti;
    struct stats_view sv;
    uint64_t interval = (uint64_t)cfg.progress_ms * 1000000u;   // NORACE needs=sharing: configuration, written before the threads start
    uint64_t slice = interval < MAX_SLICE_NS ? interval : MAX_SLICE_NS;
    uint64_t t0 = now_ns(), t_last = t0;
    unsigned long lines_last = 0;
    unsigned resizes_seen = 0;

    for (;;) {
        unsigned resizes;
        uint64_t now;

        sleep_ns(slice);
        resizes = word_table_resizes();
        word_table_info(&ti);
        if (ti.done)
            break;

        if (resizes != resizes_seen) {
            log_debug("writer: word table now has %zu buckets (%zu words)",
                      ti.buckets, ti.distinct);
            resizes_seen = resizes;
        }
        now = now_ns();
        if (now - t_last >= interval) {
            stats_view(&sv);
            report_progress(now - t0, now - t_last, lines_last, &sv, &ti, resizes);
            lines_last = sv.lines_read;
            t_last = now;
        }
    }

    log_debug("writer: counting finished after %.3fs, writing top %zu",
              (double)(now_ns() - t0) / 1e9, cfg.topk);
    if (ti.failed != 0)
        log_warn("writer: %lu words were lost to allocation failures; counts are low",
                 ti.failed);
    return write_report(pl->out, &ti) != 0 ? (void *)1 : NULL;
}
