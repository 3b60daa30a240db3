/*
 * stats.h - server-wide request statistics.
 */
#ifndef WEBCACHE_STATS_H
#define WEBCACHE_STATS_H

#include <stddef.h>

struct server_stats {
    unsigned long requests;      /* responses sent, any status */
    unsigned long hits;          /* files served from the cache */
    unsigned long misses;        /* files read from the document root */
    unsigned long not_found;     /* 404 responses */
    unsigned long errors;        /* other 4xx/5xx responses */
    unsigned long rejected;      /* connections refused by the listener */
    unsigned long bytes_sent;    /* response bytes, headers included */
};

/*
 * The live counters.  Everything is updated through the functions below,
 * under the statistics lock, except the cache hit counter, which the
 * request hot path bumps directly (see serve_file() in server.c).
 */
extern struct server_stats g_stats;

void stats_record_response(int status, size_t bytes);
void stats_record_miss(void);
void stats_record_reject(void);
void stats_snapshot(struct server_stats *out);
int  stats_format(char *buf, size_t size, const struct server_stats *st);

#endif /* WEBCACHE_STATS_H */
