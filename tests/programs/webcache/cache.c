/*
 * cache.c - hash table of cached files with LRU replacement.
 *
 * One global table, protected by one reader/writer lock.  Entries are
 * allocated under the write lock and never freed while the server runs:
 * when the table is full, the least recently used entry is recycled for
 * the new key.  Each entry carries a last-used timestamp for the LRU
 * choice.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"

struct cache_entry {
    struct cache_entry *next;        /* hash chain */
    unsigned long       hash;
    char               *key;         /* URL path, e.g. "/index.html" */
    void               *body;
    size_t              len;
    time_t              mtime;       /* modification time of the file */
    time_t              loaded_at;   /* when the body was read */
    long long           last_used;   /* monotonic ms, for LRU */
};

static struct {
    pthread_rwlock_t     lock;
    struct cache_entry **buckets;
    unsigned long        nbuckets;   /* power of two */
    int                  nentries;
    int                  max_entries;
    size_t               max_object;
    int                  ttl;
    size_t               bytes;
    unsigned long        evictions;
    unsigned long        replacements;
} g_cache = {
    .lock = PTHREAD_RWLOCK_INITIALIZER,
};

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* FNV-1a */
static unsigned long hash_key(const char *s)
{
    uint32_t h = 2166136261u;

    while (*s != '\0') {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

int cache_init(int max_entries, size_t max_object, int ttl)
{
    unsigned long n = 16;

    if (max_entries <= 0)
        return -1;
    while (n < (unsigned long)max_entries * 2)
        n <<= 1;

    pthread_rwlock_wrlock(&g_cache.lock);
    g_cache.buckets = calloc(n, sizeof *g_cache.buckets); // NORACE
    g_cache.nbuckets = n; // NORACE
    g_cache.max_entries = max_entries; // NORACE
    g_cache.max_object = max_object; // NORACE
    g_cache.ttl = ttl; // NORACE
    pthread_rwlock_unlock(&g_cache.lock);
    return g_cache.buckets != NULL ? 0 : -1;
}

/*
 * Record that the entry was just used.  The stamp only steers the LRU
 * choice, so it is updated without taking the table lock again.
 */
void cache_mark_used(struct cache_entry *e)
{
    e->last_used = now_ms(); // RACE(last_used): written after the table lock was dropped
}

/* Caller holds g_cache.lock (either side). */
static struct cache_entry *find_locked(const char *key, unsigned long h)
{
    struct cache_entry *e;

    for (e = g_cache.buckets[h & (g_cache.nbuckets - 1)]; e != NULL; e = e->next) // NORACE
        if (e->hash == h && strcmp(e->key, key) == 0) // FALSE-ALARM: kcopy is NULL or a fresh strdup until it is published under the lock, but uniqueness drops it where the two branches meet, so free(kcopy) counts as an unlocked write
            return e;
    return NULL;
}

void *cache_get(const char *key, size_t *lenp, time_t *mtimep,
                struct cache_entry **ref)
{
    struct cache_entry *e;
    void *copy = NULL;
    unsigned long h = hash_key(key);
    time_t now = time(NULL);

    pthread_rwlock_rdlock(&g_cache.lock);
    e = find_locked(key, h);
    if (e != NULL &&
        (g_cache.ttl <= 0 || now - e->loaded_at <= g_cache.ttl)) { // NORACE
        copy = malloc(e->len > 0 ? e->len : 1); // NORACE
        if (copy != NULL) {
            memcpy(copy, e->body, e->len); // NORACE
            *lenp = e->len; // NORACE
            *mtimep = e->mtime; // NORACE
            *ref = e;
        }
    }
    pthread_rwlock_unlock(&g_cache.lock);
    return copy;
}

/* Caller holds the write lock. */
static void unlink_locked(struct cache_entry *victim)
{
    struct cache_entry **pp;

    pp = &g_cache.buckets[victim->hash & (g_cache.nbuckets - 1)]; // NORACE
    while (*pp != NULL && *pp != victim)
        pp = &(*pp)->next;
    if (*pp != NULL)
        *pp = victim->next; // NORACE
}

/* Caller holds the write lock: the least recently used entry. */
static struct cache_entry *pick_victim_locked(void)
{
    struct cache_entry *victim = NULL;
    struct cache_entry *e;
    unsigned long i;

    for (i = 0; i < g_cache.nbuckets; i++)
        for (e = g_cache.buckets[i]; e != NULL; e = e->next)
            if (victim == NULL || e->last_used < victim->last_used) // RACE(last_used)
                victim = e;
    return victim;
}

struct cache_entry *cache_put(const char *key, const void *data, size_t len,
                              time_t mtime)
{
    struct cache_entry *e;
    unsigned long h = hash_key(key);
    char *kcopy = NULL;
    void *body;

    pthread_rwlock_wrlock(&g_cache.lock);
    if (len > g_cache.max_object) { // NORACE
        pthread_rwlock_unlock(&g_cache.lock);
        return NULL;
    }
    body = malloc(len > 0 ? len : 1);
    e = find_locked(key, h);
    if (e == NULL)
        kcopy = strdup(key);
    if (body == NULL || (e == NULL && kcopy == NULL)) {
        pthread_rwlock_unlock(&g_cache.lock);
        free(body);
        free(kcopy);
        return NULL;
    }
    memcpy(body, data, len);

    if (e != NULL) {
        /* another worker (or a stale copy) got there first: refresh it */
        g_cache.bytes -= e->len; // NORACE
        free(e->body); // NORACE
        g_cache.replacements++; // NORACE
    } else {
        if (g_cache.nentries >= g_cache.max_entries) { // NORACE
            e = pick_victim_locked();
            unlink_locked(e);
            g_cache.bytes -= e->len; // NORACE
            free(e->body); // NORACE
            free(e->key); // FALSE-ALARM: kcopy is NULL or a fresh strdup until it is published under the lock, but uniqueness drops it where the two branches meet, so free(kcopy) counts as an unlocked write
            g_cache.evictions++; // NORACE
        } else {
            e = calloc(1, sizeof *e);
            if (e == NULL) {
                pthread_rwlock_unlock(&g_cache.lock);
                free(body);
                free(kcopy);
                return NULL;
            }
            g_cache.nentries++; // NORACE
        }
        e->key = kcopy; // NORACE
        e->hash = h; // NORACE
        e->next = g_cache.buckets[h & (g_cache.nbuckets - 1)]; // NORACE
        g_cache.buckets[h & (g_cache.nbuckets - 1)] = e; // NORACE
    }
    e->body = body; // NORACE
    e->len = len; // NORACE
    e->mtime = mtime; // NORACE
    e->loaded_at = time(NULL); // NORACE
    g_cache.bytes += len; // NORACE
    pthread_rwlock_unlock(&g_cache.lock);
    return e;
}

void cache_report(struct cache_report *out)
{
    struct cache_entry *e;
    long long now = now_ms();
    long long oldest = -1;
    unsigned long i;

    pthread_rwlock_rdlock(&g_cache.lock);
    out->entries = g_cache.nentries; // NORACE
    out->max_entries = g_cache.max_entries; // NORACE
    out->bytes = g_cache.bytes; // NORACE
    out->evictions = g_cache.evictions; // NORACE
    out->replacements = g_cache.replacements; // NORACE
    for (i = 0; i < g_cache.nbuckets; i++) {
        for (e = g_cache.buckets[i]; e != NULL; e = e->next) {
            long long idle = now - e->last_used; // RACE(last_used)
            if (idle > oldest)
                oldest = idle;
        }
    }
    pthread_rwlock_unlock(&g_cache.lock);
    out->oldest_idle_ms = (long)oldest;
}

/* Free every entry; called once the workers have been joined. */
void cache_destroy(void)
{
    struct cache_entry *e, *next;
    unsigned long i;

    pthread_rwlock_wrlock(&g_cache.lock);
    for (i = 0; i < g_cache.nbuckets; i++) {
        for (e = g_cache.buckets[i]; e != NULL; e = next) {
            next = e->next;
            free(e->key);
            free(e->body);
            free(e);
        }
        g_cache.buckets[i] = NULL;
    }
    free(g_cache.buckets);
    g_cache.buckets = NULL;
    g_cache.nbuckets = 0;
    g_cache.nentries = 0;
    g_cache.bytes = 0;
    pthread_rwlock_unlock(&g_cache.lock);
}
