/*
 * results.c - the shared list of matches.
 *
 * Workers build a complete record in freshly allocated memory and only
 * then take the list lock to link it in, so the critical section is a
 * couple of pointer assignments.  The list is printed by main() once the
 * scan is over, sorted so that the output does not depend on scheduling.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "results.h"

struct result {
    struct result *next;
    long lineno;                /* 0 in -l/-c mode */
    long count;
    size_t path_len;
    int has_text;
    char data[];                /* path NUL [text NUL] */
};

static const char *result_path(const struct result *r)
{
    return r->data;
}

static const char *result_text(const struct result *r)
{
    return r->has_text ? r->data + r->path_len + 1 : NULL;
}

static struct {
    pthread_mutex_t lock;
    struct result *head;
    struct result **tail;
    size_t n;
    unsigned long long lines;
} g_results = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .head = NULL,
    .tail = &g_results.head,
};

int results_add(const char *path, long lineno, const char *text,
                size_t textlen, long count)
{
    size_t plen = strlen(path);
    size_t size = sizeof(struct result) + plen + 1;
    struct result *r;

    if (text != NULL)
        size += textlen + 1;
    r = malloc(size);
    if (r == NULL)
        return -1;

    /* r is private to this thread until it is linked in below. */
    r->next = NULL; // NORACE
    r->lineno = lineno; // NORACE
    r->count = count; // NORACE
    r->path_len = plen; // NORACE
    r->has_text = text != NULL; // NORACE
    if (text != NULL) {
        r->data[plen + 1 + textlen] = '\0'; // NORACE
        memcpy(r->data + plen + 1, text, textlen); // NORACE
    }
    memcpy(r->data, path, plen + 1); // NORACE

    pthread_mutex_lock(&g_results.lock);
    *g_results.tail = r; // NORACE
    g_results.tail = &r->next; // NORACE
    g_results.n++; // NORACE
    g_results.lines += (unsigned long long)count; // NORACE
    pthread_mutex_unlock(&g_results.lock);
    return 0;
}

void results_foreach(results_visit_fn fn, void *arg)
{
    const struct result *r;

    pthread_mutex_lock(&g_results.lock);
    for (r = g_results.head; r != NULL; r = r->next) // NORACE
        fn(arg, result_path(r), r->lineno, result_text(r), r->count); // NORACE
    pthread_mutex_unlock(&g_results.lock);
}

static int compare_results(const void *a, const void *b)
{
    const struct result *ra = *(const struct result *const *)a;
    const struct result *rb = *(const struct result *const *)b;
    int c = strcmp(result_path(ra), result_path(rb));

    if (c != 0)
        return c;
    return (ra->lineno > rb->lineno) - (ra->lineno < rb->lineno);
}

size_t results_print(FILE *out, enum output_mode mode)
{
    struct result **v, *r;
    size_t i, n;

    pthread_mutex_lock(&g_results.lock);
    n = g_results.n; // NORACE
    if (n == 0) {
        pthread_mutex_unlock(&g_results.lock);
        return 0;
    }
    v = malloc(n * sizeof *v);
    if (v == NULL) {
        pthread_mutex_unlock(&g_results.lock);
        log_error("out of memory while sorting %zu results", n);
        return 0;
    }
    i = 0;
    for (r = g_results.head; r != NULL && i < n; r = r->next) // NORACE
        v[i++] = r;
    qsort(v, n, sizeof *v, compare_results);

    for (i = 0; i < n; i++) {
        switch (mode) {
        case OUT_LINES:
            fprintf(out, "%s:%ld:%s\n", result_path(v[i]), v[i]->lineno, result_text(v[i])); // NORACE
            break;
        case OUT_FILES:
            fprintf(out, "%s\n", result_path(v[i])); // NORACE
            break;
        case OUT_COUNT:
            fprintf(out, "%s:%ld\n", result_path(v[i]), v[i]->count); // NORACE
            break;
        }
    }
    pthread_mutex_unlock(&g_results.lock);
    free(v);
    return n;
}

unsigned long long results_total(void)
{
    unsigned long long lines;

    pthread_mutex_lock(&g_results.lock);
    lines = g_results.lines; // NORACE
    pthread_mutex_unlock(&g_results.lock);
    return lines;
}

void results_clear(void)
{
    struct result *r, *next;

    pthread_mutex_lock(&g_results.lock);
    for (r = g_results.head; r != NULL; r = next) { // NORACE
        next = r->next; // NORACE
        free(r);
    }
    g_results.head = NULL; // NORACE
    g_results.tail = &g_results.head; // NORACE
    g_results.n = 0; // NORACE
    g_results.lines = 0; // NORACE
    pthread_mutex_unlock(&g_results.lock);
}
