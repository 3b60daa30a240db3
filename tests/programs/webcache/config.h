/*
 * config.h - run-time configuration of the webcache server.
 *
 * The configuration is filled in by main() from the command line (and by
 * the self-test setup) before any thread is started; afterwards it is only
 * read, with one deliberate exception: max_conns can be changed by an
 * administrator through GET /admin/max-conns (see server.c).
 */
#ifndef WEBCACHE_CONFIG_H
#define WEBCACHE_CONFIG_H

#include <stddef.h>

#define WEBCACHE_NAME    "webcache"
#define WEBCACHE_VERSION "1.0"

#define WC_PATH_MAX      1024
#define WC_ADDR_MAX      64

/* defaults */
#define DEF_PORT            8080
#define DEF_BIND_ADDR       "0.0.0.0"
#define DEF_WORKERS         8
#define DEF_QUEUE_LEN       128
#define DEF_MAX_CONNS       256
#define DEF_CACHE_ENTRIES   512
#define DEF_CACHE_OBJECT    (256 * 1024)
#define DEF_CACHE_TTL       30
#define DEF_IO_TIMEOUT      10
#define DEF_BACKLOG         64

struct config {
    char   docroot[WC_PATH_MAX];     /* directory the files are served from */
    char   bind_addr[WC_ADDR_MAX];   /* IPv4 address to listen on */
    char   access_log[WC_PATH_MAX];  /* access log file, "" = none */
    int    port;                     /* TCP port; the real one after bind */
    int    nworkers;                 /* size of the worker pool */
    int    queue_len;                /* capacity of the connection queue */
    int    max_conns;                /* connections in flight before 503 */
    int    cache_entries;            /* maximum number of cached files */
    size_t cache_max_object;         /* larger files are not cached */
    int    cache_ttl;                /* seconds before an entry is reloaded */
    int    io_timeout;               /* socket receive/send timeout, seconds */
    int    verbose;                  /* diagnostic level, see log.h */
    int    allow_admin;              /* serve /admin/ requests from loopback */
    int    selftest;                 /* run the built-in self-test */
};

extern struct config g_cfg;

#endif /* WEBCACHE_CONFIG_H */
