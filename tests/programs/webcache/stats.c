/*
 * stats.c - server-wide request statistics, protected by g_stats_lock.
 */
#include <pthread.h>
#include <stdio.h>

#include "stats.h"

struct server_stats g_stats;
static pthread_mutex_t g_stats_lock = PTHREAD_MUTEX_INITIALIZER;

void stats_record_response(int status, size_t bytes)
{
    pthread_mutex_lock(&g_stats_lock);
    g_stats.requests++; // NORACE
    g_stats.bytes_sent += bytes; // NORACE
    if (status == 404)
        g_stats.not_found++; // NORACE
    else if (status >= 400)
        g_stats.errors++; // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

void stats_record_miss(void)
{
    pthread_mutex_lock(&g_stats_lock);
    g_stats.misses++; // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

void stats_record_reject(void)
{
    pthread_mutex_lock(&g_stats_lock);
    g_stats.rejected++; // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

/* Copy the counters consistently (as far as the lock can guarantee it). */
void stats_snapshot(struct server_stats *out)
{
    pthread_mutex_lock(&g_stats_lock);
    out->requests   = g_stats.requests; // NORACE
    out->hits       = g_stats.hits; // RACE(hits): read under the lock, but the hot path writes without it
    out->misses     = g_stats.misses; // NORACE
    out->not_found  = g_stats.not_found; // NORACE
    out->errors     = g_stats.errors; // NORACE
    out->rejected   = g_stats.rejected; // NORACE
    out->bytes_sent = g_stats.bytes_sent; // NORACE
    pthread_mutex_unlock(&g_stats_lock);
}

int stats_format(char *buf, size_t size, const struct server_stats *st)
{
    unsigned long lookups = st->hits + st->misses;
    unsigned long pct = lookups ? (st->hits * 100UL) / lookups : 0;

    return snprintf(buf, size,
                    "requests: %lu\n"
                    "cache hits: %lu\n"
                    "cache misses: %lu\n"
                    "hit ratio: %lu%%\n"
                    "not found: %lu\n"
                    "errors: %lu\n"
                    "rejected connections: %lu\n"
                    "bytes sent: %lu\n",
                    st->requests, st->hits, st->misses, pct,
                    st->not_found, st->errors, st->rejected, st->bytes_sent);
}
