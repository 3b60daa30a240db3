/*
 * registry.c - hash table of metrics, protected by a single global mutex.
 *
 * Counters and timers are reset by every snapshot; gauges keep their value
 * until they are set again.  Metrics are never removed while the server
 * runs, so a struct metric stays valid until registry_destroy().
 */
#include "registry.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define REGISTRY_BUCKETS     1024
#define REGISTRY_MAX_METRICS 10000
#define TIMER_MAX_SAMPLES    4096

struct timer_data {
    double count;
    double sum;
    double min;
    double max;
    unsigned long hist[HIST_BUCKETS];
    double *samples;        /* raw values kept for percentiles */
    size_t nsamples;
    size_t cap;
};

struct metric {
    struct metric *next;
    enum metric_type type;
    char name[METRIC_NAME_MAX];
    double counter;
    double gauge;
    struct timer_data timer;
    unsigned long updates;
    time_t last_seen;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct metric *buckets[REGISTRY_BUCKETS];
static size_t metric_count;
static unsigned long metrics_rejected;

/* FNV-1a over the type and the name. */
static unsigned bucket_of(enum metric_type type, const char *name)
{
    uint32_t h = 2166136261u;

    h = (h ^ (uint32_t)type) * 16777619u;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h % REGISTRY_BUCKETS;
}

double registry_hist_bound(int i)
{
    double bound = 1.0;

    if (i >= HIST_BUCKETS - 1)
        return -1.0;            /* +inf */
    while (i-- > 0)
        bound *= 2.0;
    return bound;
}

/* Bucket 0 holds [0,1) ms, bucket k holds [2^(k-1), 2^k), the last one the rest. */
static int hist_index(double ms)
{
    double bound = 1.0;
    int k = 0;

    while (k < HIST_BUCKETS - 1 && ms >= bound) {
        bound *= 2.0;
        k++;
    }
    return k;
}

/* Caller holds registry_lock. */
static struct metric *lookup(unsigned b, const struct sample *s)
{
    struct metric *m;

    for (m = buckets[b]; m != NULL; m = m->next) { // NORACE
        if (m->type == s->type && strcmp(m->name, s->name) == 0)
            return m;
    }
    return NULL;
}

/* Caller holds registry_lock. */
static struct metric *insert(unsigned b, const struct sample *s)
{
    struct metric *m;

    if (metric_count >= REGISTRY_MAX_METRICS) { // NORACE
        if (metrics_rejected++ == 0) // NORACE
            log_msg(LVL_WARN, "registry full (%d metrics), dropping new names",
                    REGISTRY_MAX_METRICS);
        return NULL;
    }
    m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->type = s->type;
    memcpy(m->name, s->name, sizeof m->name);
    m->next = buckets[b];
    buckets[b] = m; // NORACE
    metric_count++; // NORACE
    return m;
}

/* Caller holds registry_lock. */
static void timer_add(struct timer_data *t, double value, double rate)
{
    if (t->count == 0 || value < t->min) // NORACE
        t->min = value;
    if (t->count == 0 || value > t->max)
        t->max = value;
    t->count += 1.0 / rate; // NORACE
    t->sum += value;
    t->hist[hist_index(value)]++;

    if (t->nsamples == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 16;
        double *p;

        if (ncap > TIMER_MAX_SAMPLES)
            return;             /* reservoir full for this interval */
        p = realloc(t->samples, ncap * sizeof *p);
        if (p == NULL)
            return;
        t->samples = p;
        t->cap = ncap;
    }
    t->samples[t->nsamples++] = value; // NORACE
}

int registry_record(const struct sample *s, time_t now)
{
    unsigned b = bucket_of(s->type, s->name);
    struct metric *m;

    pthread_mutex_lock(&registry_lock);
    m = lookup(b, s);
    if (m == NULL)
        m = insert(b, s);
    if (m == NULL) {
        pthread_mutex_unlock(&registry_lock);
        return -1;
    }
    switch (s->type) {
    case METRIC_COUNTER:
        m->counter += s->value / s->sample_rate; // NORACE
        break;
    case METRIC_GAUGE:
        if (s->relative)
            m->gauge += s->value; // NORACE
        else
            m->gauge = s->value; // NORACE
        break;
    case METRIC_TIMER:
        timer_add(&m->timer, s->value, s->sample_rate);
        break;
    }
    m->updates++; // NORACE
    pthread_mutex_unlock(&registry_lock);

    /*
     * The timestamp only feeds the idle-metric filter of the flusher, so it
     * is stored after the critical section to keep the hold time short.
     */
    m->last_seen = now; // RACE(last_seen)
    return 0;
}

static void timer_reset(struct timer_data *t)
{
    t->count = 0; // NORACE
    t->sum = 0;
    t->min = 0;
    t->max = 0;
    memset(t->hist, 0, sizeof t->hist);
    t->nsamples = 0; // NORACE
}

/* Caller holds registry_lock; s is private to the caller. */
static int copy_metric(struct metric_snapshot *s, struct metric *m)
{
    memcpy(s->name, m->name, sizeof s->name);
    s->type = m->type;
    s->counter = m->counter; // NORACE
    s->gauge = m->gauge; // NORACE
    s->updates = m->updates; // NORACE
    s->last_seen = m->last_seen; // RACE(last_seen)
    if (m->type == METRIC_TIMER) {
        s->timer.count = m->timer.count; // NORACE
        s->timer.sum = m->timer.sum;
        s->timer.min = m->timer.min;
        s->timer.max = m->timer.max;
        memcpy(s->timer.hist, m->timer.hist, sizeof s->timer.hist);
        if (m->timer.nsamples > 0) { // NORACE
            size_t bytes = m->timer.nsamples * sizeof(double);

            s->timer.samples = malloc(bytes);
            if (s->timer.samples == NULL)
                return -1;
            memcpy(s->timer.samples, m->timer.samples, bytes); // NORACE
            s->timer.nsamples = m->timer.nsamples;
        }
    }
    return 0;
}

int registry_snapshot(struct metric_snapshot **out, size_t *count)
{
    struct metric_snapshot *snap = NULL;
    struct metric *m;
    size_t n, i = 0;
    unsigned b;

    pthread_mutex_lock(&registry_lock);
    n = metric_count; // NORACE
    if (n > 0) {
        snap = calloc(n, sizeof *snap);
        if (snap == NULL) {
            pthread_mutex_unlock(&registry_lock);
            return -1;
        }
    }
    for (b = 0; b < REGISTRY_BUCKETS && i < n; b++) {
        for (m = buckets[b]; m != NULL && i < n; m = m->next) {
            if (copy_metric(&snap[i], m) != 0) {
                pthread_mutex_unlock(&registry_lock);
                registry_free_snapshot(snap, i + 1);
                return -1;
            }
            i++;
            m->counter = 0; // NORACE
            m->updates = 0;
            timer_reset(&m->timer);
        }
    }
    pthread_mutex_unlock(&registry_lock);

    *out = snap;
    *count = i;
    return 0;
}

void registry_free_snapshot(struct metric_snapshot *snap, size_t count)
{
    size_t i;

    if (snap == NULL)
        return;
    for (i = 0; i < count; i++)
        free(snap[i].timer.samples);
    free(snap);
}

void registry_dump_counters(FILE *out)
{
    struct metric *m;
    unsigned b;

    pthread_mutex_lock(&registry_lock);
    fprintf(out, "# %zu metrics registered\n", metric_count);
    for (b = 0; b < REGISTRY_BUCKETS; b++) {
        for (m = buckets[b]; m != NULL; m = m->next) {
            double value;

            if (m->type != METRIC_COUNTER)
                continue;
            value = m->counter; // NORACE
            fprintf(out, "#   %-40s %.17g\n", m->name, value);
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

size_t registry_size(void)
{
    size_t n;

    pthread_mutex_lock(&registry_lock);
    n = metric_count; // NORACE
    pthread_mutex_unlock(&registry_lock);
    return n;
}

unsigned long registry_rejected(void)
{
    unsigned long n;

    pthread_mutex_lock(&registry_lock);
    n = metrics_rejected; // NORACE
    pthread_mutex_unlock(&registry_lock);
    return n;
}

void registry_destroy(void)
{
    struct metric *m, *next;
    unsigned b;

    pthread_mutex_lock(&registry_lock);
    for (b = 0; b < REGISTRY_BUCKETS; b++) {
        for (m = buckets[b]; m != NULL; m = next) {
            next = m->next;
            free(m->timer.samples);
            free(m);
        }
        buckets[b] = NULL;
    }
    metric_count = 0;
    pthread_mutex_unlock(&registry_lock);
}
