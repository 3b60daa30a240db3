/*
 * parse.c - statsd line protocol parser.  Pure functions, no shared state.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NUMBER_MAX 64

static const char *const status_names[] = {
    [PARSE_OK] = "ok",
    [PARSE_EMPTY] = "empty line",
    [PARSE_BAD_NAME] = "bad metric name",
    [PARSE_BAD_VALUE] = "bad value",
    [PARSE_BAD_TYPE] = "unknown metric type",
    [PARSE_BAD_RATE] = "bad sample rate",
    [PARSE_TOO_LONG] = "line too long",
};

const char *parse_status_str(enum parse_status st)
{
    if ((size_t)st < sizeof status_names / sizeof status_names[0])
        return status_names[st];
    return "?";
}

const char *metric_type_name(enum metric_type type)
{
    switch (type) {
    case METRIC_COUNTER:
        return "counter";
    case METRIC_GAUGE:
        return "gauge";
    case METRIC_TIMER:
        return "timer";
    }
    return "?";
}

/*
 * Copies the key into out, applying the usual statsd clean-up: blanks
 * become '_', '/' becomes '-', anything else outside [A-Za-z0-9_.-] is
 * dropped.  Returns -1 if nothing is left or the name does not fit.
 */
static int sanitize_name(const char *src, size_t len, char *out)
{
    size_t i, n = 0;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)src[i];

        if (isspace(c))
            c = '_';
        else if (c == '/')
            c = '-';
        else if (!isalnum(c) && c != '_' && c != '-' && c != '.')
            continue;
        if (n + 1 >= METRIC_NAME_MAX)
            return -1;
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return n > 0 ? 0 : -1;
}

/* strtod on a bounded, non-terminated field. */
static int parse_number(const char *s, size_t len, double *out)
{
    char buf[NUMBER_MAX];
    char *end;
    double v;

    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    v = strtod(buf, &end);
    if (errno != 0 || end != buf + len || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int field_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

enum parse_status parse_line(const char *line, size_t len, struct sample *out)
{
    const char *colon, *bar, *type, *rate, *end;
    size_t typelen;

    /* Tolerate CRLF senders and surrounding blanks. */
    while (len > 0 && isspace((unsigned char)line[len - 1]))
        len--;
    while (len > 0 && isspace((unsigned char)*line)) {
        line++;
        len--;
    }
    if (len == 0)
        return PARSE_EMPTY;
    if (len > 1024)
        return PARSE_TOO_LONG;
    end = line + len;

    colon = memchr(line, ':', len);
    if (colon == NULL || colon == line)
        return PARSE_BAD_NAME;
    if (sanitize_name(line, (size_t)(colon - line), out->name) != 0)
        return PARSE_BAD_NAME;

    bar = memchr(colon + 1, '|', (size_t)(end - colon - 1));
    if (bar == NULL)
        return PARSE_BAD_TYPE;
    if (parse_number(colon + 1, (size_t)(bar - colon - 1), &out->value) != 0)
        return PARSE_BAD_VALUE;

    type = bar + 1;
    rate = memchr(type, '|', (size_t)(end - type));
    typelen = (size_t)((rate ? rate : end) - type);
    out->relative = 0;
    if (field_is(type, typelen, "c")) {
        out->type = METRIC_COUNTER;
    } else if (field_is(type, typelen, "g")) {
        out->type = METRIC_GAUGE;
        out->relative = colon[1] == '+' || colon[1] == '-';
    } else if (field_is(type, typelen, "ms") || field_is(type, typelen, "h")) {
        out->type = METRIC_TIMER;
        if (out->value < 0)
            return PARSE_BAD_VALUE;
    } else {
        return PARSE_BAD_TYPE;
    }

    out->sample_rate = 1.0;
    if (rate != NULL) {
        if (out->type == METRIC_GAUGE)
            return PARSE_BAD_RATE;      /* sampling a gauge is meaningless */
        if (rate + 1 >= end || rate[1] != '@')
            return PARSE_BAD_RATE;
        if (parse_number(rate + 2, (size_t)(end - rate - 2),
                         &out->sample_rate) != 0)
            return PARSE_BAD_RATE;
        if (!(out->sample_rate > 0.0 && out->sample_rate <= 1.0))
            return PARSE_BAD_RATE;
    }
    return PARSE_OK;
}
