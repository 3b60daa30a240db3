/*
 * http.h - HTTP/1.0 request parsing and response formatting.
 */
#ifndef WEBCACHE_HTTP_H
#define WEBCACHE_HTTP_H

#include <stddef.h>
#include <time.h>

#define HTTP_MAX_REQUEST   8192      /* request line + headers */
#define HTTP_MAX_PATH      1024
#define HTTP_MAX_QUERY     256
#define HTTP_MAX_FIELD     256

enum http_method {
    HTTP_GET,
    HTTP_HEAD,
    HTTP_UNSUPPORTED
};

struct http_request {
    enum http_method method;
    char method_name[16];
    char path[HTTP_MAX_PATH];        /* percent-decoded, without query */
    char query[HTTP_MAX_QUERY];      /* raw query string, may be empty */
    int  version_major;
    int  version_minor;
    char host[HTTP_MAX_FIELD];
    char user_agent[HTTP_MAX_FIELD];
    char referer[HTTP_MAX_FIELD];
};

/*
 * Parse the request head in buf[0..len) (NUL terminated by the caller).
 * Returns 0 on success or the HTTP status to answer with.
 */
int  http_parse_request(const char *buf, size_t len, struct http_request *req);

/* Turn a decoded URL path into a safe relative path; 0 or an HTTP status. */
int  http_clean_path(const char *in, char *out, size_t outsz);

/* Value of 'name' in an a=b&c=d query string; 0 if found. */
int  http_query_param(const char *query, const char *name,
                      char *out, size_t outsz);

const char *http_reason(int status);
const char *http_mime_type(const char *path);
void http_format_date(time_t t, char *buf, size_t size);

/*
 * Format a response head.  'mtime' <= 0 omits Last-Modified, 'cache'
 * NULL omits X-Cache.  Returns the length or -1 if it did not fit.
 */
int  http_format_head(char *buf, size_t size, int status, const char *ctype,
                      size_t content_length, time_t mtime, const char *cache);

#endif /* WEBCACHE_HTTP_H */
