/*
 * http.c - HTTP/1.0 request parsing and response formatting.
 *
 * Everything here works on caller-provided buffers and has no state.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "config.h"
#include "http.h"

static const struct {
    const char *ext;
    const char *type;
} mime_types[] = {
    { "html", "text/html; charset=utf-8" },
    { "htm",  "text/html; charset=utf-8" },
    { "css",  "text/css" },
    { "js",   "application/javascript" },
    { "txt",  "text/plain; charset=utf-8" },
    { "json", "application/json" },
    { "png",  "image/png" },
    { "jpg",  "image/jpeg" },
    { "jpeg", "image/jpeg" },
    { "gif",  "image/gif" },
    { "svg",  "image/svg+xml" },
    { "ico",  "image/x-icon" },
    { "pdf",  "application/pdf" },
};

const char *http_reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default:  return "Unknown";
    }
}

const char *http_mime_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    size_t i;

    if (dot == NULL || (slash != NULL && dot < slash))
        return "application/octet-stream";
    for (i = 0; i < sizeof mime_types / sizeof mime_types[0]; i++)
        if (strcasecmp(dot + 1, mime_types[i].ext) == 0)
            return mime_types[i].type;
    return "application/octet-stream";
}

void http_format_date(time_t t, char *buf, size_t size)
{
    struct tm tm;

    if (gmtime_r(&t, &tm) == NULL ||
        strftime(buf, size, "%a, %d %b %Y %H:%M:%S GMT", &tm) == 0) {
        if (size > 0)
            buf[0] = '\0';
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Percent-decode src[0..n) into dst; -1 on malformed escapes or NUL. */
static int url_decode(const char *src, size_t n, char *dst, size_t dstsz)
{
    size_t i, o = 0;

    for (i = 0; i < n; i++) {
        int c = (unsigned char)src[i];

        if (c == '%') {
            int hi, lo;

            if (i + 2 >= n)
                return -1;
            hi = hexval((unsigned char)src[i + 1]);
            lo = hexval((unsigned char)src[i + 2]);
            if (hi < 0 || lo < 0)
                return -1;
            c = hi * 16 + lo;
            i += 2;
            if (c == 0)
                return -1;
        }
        if (o + 1 >= dstsz)
            return -1;
        dst[o++] = (char)c;
    }
    dst[o] = '\0';
    return 0;
}

/* Copy a header value, trimming blanks, truncating to the field size. */
static void copy_field(char *dst, size_t dstsz, const char *v, size_t n)
{
    while (n > 0 && (*v == ' ' || *v == '\t')) {
        v++;
        n--;
    }
    while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n >= dstsz)
        n = dstsz - 1;
    memcpy(dst, v, n);
    dst[n] = '\0';
}

static int parse_request_line(const char *line, size_t n,
                              struct http_request *req)
{
    const char *sp1, *sp2, *target, *q, *end = line + n;
    size_t mlen, tlen;

    sp1 = memchr(line, ' ', n);
    if (sp1 == NULL)
        return 400;
    mlen = (size_t)(sp1 - line);
    if (mlen == 0 || mlen >= sizeof req->method_name)
        return 400;
    memcpy(req->method_name, line, mlen);
    req->method_name[mlen] = '\0';
    if (strcmp(req->method_name, "GET") == 0)
        req->method = HTTP_GET;
    else if (strcmp(req->method_name, "HEAD") == 0)
        req->method = HTTP_HEAD;
    else
        req->method = HTTP_UNSUPPORTED;

    target = sp1 + 1;
    sp2 = memchr(target, ' ', (size_t)(end - target));
    if (sp2 == NULL) {
        /* HTTP/0.9 simple request: "GET /path" */
        sp2 = end;
        req->version_major = 0;
        req->version_minor = 9;
    } else {
        const char *v = sp2 + 1;

        if ((size_t)(end - v) != 8 || strncmp(v, "HTTP/", 5) != 0 ||
            !isdigit((unsigned char)v[5]) || v[6] != '.' ||
            !isdigit((unsigned char)v[7]))
            return 400;
        req->version_major = v[5] - '0';
        req->version_minor = v[7] - '0';
        if (req->version_major != 1)
            return 505;
    }

    tlen = (size_t)(sp2 - target);
    if (tlen == 0 || target[0] != '/')
        return 400;
    q = memchr(target, '?', tlen);
    if (q != NULL) {
        size_t qlen = (size_t)(sp2 - q - 1);

        if (qlen >= sizeof req->query)
            return 414;
        memcpy(req->query, q + 1, qlen);
        req->query[qlen] = '\0';
        tlen = (size_t)(q - target);
    }
    if (tlen >= sizeof req->path)
        return 414;
    if (url_decode(target, tlen, req->path, sizeof req->path) != 0)
        return 400;
    return 0;
}

int http_parse_request(const char *buf, size_t len, struct http_request *req)
{
    const char *p = buf, *end = buf + len;
    const char *eol;
    size_t line_len;
    int status;

    memset(req, 0, sizeof *req);

    eol = memchr(p, '\n', (size_t)(end - p));
    if (eol == NULL)
        return 400;
    line_len = (size_t)(eol - p);
    if (line_len > 0 && p[line_len - 1] == '\r')
        line_len--;
    status = parse_request_line(p, line_len, req);
    if (status != 0)
        return status;

    /* header lines until the empty line */
    for (p = eol + 1; p < end; p = eol + 1) {
        const char *colon;
        size_t n, name_len;

        eol = memchr(p, '\n', (size_t)(end - p));
        if (eol == NULL)
            break;                      /* truncated head: ignore the rest */
        n = (size_t)(eol - p);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n == 0)
            break;                      /* end of the head */
        if (*p == ' ' || *p == '\t')
            continue;                   /* obsolete line folding: ignore */
        colon = memchr(p, ':', n);
        if (colon == NULL)
            return 400;
        name_len = (size_t)(colon - p);
        n -= name_len + 1;
        if (name_len == 4 && strncasecmp(p, "Host", 4) == 0)
            copy_field(req->host, sizeof req->host, colon + 1, n);
        else if (name_len == 10 && strncasecmp(p, "User-Agent", 10) == 0)
            copy_field(req->user_agent, sizeof req->user_agent, colon + 1, n);
        else if (name_len == 7 && strncasecmp(p, "Referer", 7) == 0)
            copy_field(req->referer, sizeof req->referer, colon + 1, n);
    }
    return 0;
}

int http_clean_path(const char *in, char *out, size_t outsz)
{
    const char *seg = in;
    size_t o = 0;

    if (in[0] != '/')
        return 400;

    /* walk the segments, refusing anything that could climb out */
    while (*seg != '\0') {
        const char *next;
        size_t n;

        while (*seg == '/')
            seg++;
        next = strchr(seg, '/');
        n = next != NULL ? (size_t)(next - seg) : strlen(seg);
        if (n == 0)
            break;
        if (seg[0] == '.')
            return 403;                 /* "..", "." and dot files */
        if (memchr(seg, '\\', n) != NULL)
            return 400;
        if (o + 1 + n + 1 > outsz)
            return 414;
        out[o++] = '/';
        memcpy(out + o, seg, n);
        o += n;
        seg += n;
    }

    /* a directory request maps to its index file */
    if (o == 0 || in[strlen(in) - 1] == '/') {
        static const char index_name[] = "/index.html";

        if (o + sizeof index_name > outsz)
            return 414;
        memcpy(out + o, index_name, sizeof index_name);
        o += sizeof index_name - 1;
    }
    out[o] = '\0';
    return 0;
}

int http_query_param(const char *query, const char *name,
                     char *out, size_t outsz)
{
    size_t nlen = strlen(name);
    const char *p = query;

    while (p != NULL && *p != '\0') {
        const char *amp = strchr(p, '&');
        size_t n = amp != NULL ? (size_t)(amp - p) : strlen(p);

        if (n > nlen && strncmp(p, name, nlen) == 0 && p[nlen] == '=') {
            if (url_decode(p + nlen + 1, n - nlen - 1, out, outsz) != 0)
                return -1;
            return 0;
        }
        p = amp != NULL ? amp + 1 : NULL;
    }
    return -1;
}

int http_format_head(char *buf, size_t size, int status, const char *ctype,
                     size_t content_length, time_t mtime, const char *cache)
{
    char date[64], lastmod[64];
    int n;

    http_format_date(time(NULL), date, sizeof date);
    if (mtime > 0)
        http_format_date(mtime, lastmod, sizeof lastmod);
    else
        lastmod[0] = '\0';

    n = snprintf(buf, size,
                 "HTTP/1.0 %d %s\r\n"
                 "Server: " WEBCACHE_NAME "/" WEBCACHE_VERSION "\r\n"
                 "Date: %s\r\n"
                 "Content-Type: %s\r\n"
                 "Content-Length: %lu\r\n"
                 "%s%s%s"
                 "%s%s%s"
                 "Connection: close\r\n"
                 "\r\n",
                 status, http_reason(status), date, ctype,
                 (unsigned long)content_length,
                 lastmod[0] ? "Last-Modified: " : "", lastmod,
                 lastmod[0] ? "\r\n" : "",
                 cache ? "X-Cache: " : "", cache ? cache : "",
                 cache ? "\r\n" : "");
    if (n < 0 || (size_t)n >= size)
        return -1;
    return n;
}
