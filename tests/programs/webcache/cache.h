/*
 * cache.h - in-memory cache of static files, shared by all workers.
 */
#ifndef WEBCACHE_CACHE_H
#define WEBCACHE_CACHE_H

#include <stddef.h>
#include <time.h>

struct cache_entry;                  /* opaque handle to a cached file */

struct cache_report {
    int           entries;
    int           max_entries;
    size_t        bytes;
    unsigned long evictions;
    unsigned long replacements;
    long          oldest_idle_ms;    /* idle time of the LRU entry */
};

int   cache_init(int max_entries, size_t max_object, int ttl);

/*
 * Look 'key' up.  On a hit, return a private malloc'd copy of the body
 * (the caller frees it), fill *lenp and *mtimep and set *ref to the entry
 * for cache_mark_used(); NULL on a miss or if the entry is older than the
 * TTL.
 */
void *cache_get(const char *key, size_t *lenp, time_t *mtimep,
                struct cache_entry **ref);

/*
 * Insert or refresh 'key'; the data is copied.  Returns the entry, or
 * NULL if the file is not cacheable.
 */
struct cache_entry *cache_put(const char *key, const void *data, size_t len,
                              time_t mtime);

/* Record a use of the entry (LRU bookkeeping) once it has been served. */
void  cache_mark_used(struct cache_entry *ref);

void  cache_report(struct cache_report *out);
void  cache_destroy(void);

#endif /* WEBCACHE_CACHE_H */
