/*
 * parse.h - statsd line protocol:  <name>:<value>|<type>[|@<rate>]
 *
 *   requests:1|c          counter
 *   requests:1|c|@0.1     sampled counter (counts as 10)
 *   queue.depth:42|g      gauge, absolute
 *   queue.depth:-3|g      gauge, relative
 *   db.query:12.5|ms      timer (also "h" for histogram)
 */
#ifndef STATSD_PARSE_H
#define STATSD_PARSE_H

#include <stddef.h>

#define METRIC_NAME_MAX 128

enum metric_type {
    METRIC_COUNTER = 0,
    METRIC_GAUGE,
    METRIC_TIMER
};

struct sample {
    char name[METRIC_NAME_MAX];
    enum metric_type type;
    double value;
    double sample_rate;   /* (0, 1] */
    int relative;         /* gauges only: value is a delta */
};

enum parse_status {
    PARSE_OK = 0,
    PARSE_EMPTY,
    PARSE_BAD_NAME,
    PARSE_BAD_VALUE,
    PARSE_BAD_TYPE,
    PARSE_BAD_RATE,
    PARSE_TOO_LONG
};

/* Parses one line (not NUL-terminated, without the trailing newline). */
enum parse_status parse_line(const char *line, size_t len, struct sample *out);

const char *parse_status_str(enum parse_status st);
const char *metric_type_name(enum metric_type type);

#endif /* STATSD_PARSE_H */
