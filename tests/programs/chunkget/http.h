/*
 * http.h - the small subset of HTTP/1.1 that chunkget speaks.
 */
#ifndef CHUNKGET_HTTP_H
#define CHUNKGET_HTTP_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>

#define URL_HOST_MAX 256
#define URL_PORT_MAX 8
#define URL_PATH_MAX 1024

struct url {
	char host[URL_HOST_MAX];
	char port[URL_PORT_MAX];
	char path[URL_PATH_MAX];
};

/* A resolved server address, shared read-only by all download threads. */
struct endpoint {
	struct sockaddr_storage addr;
	socklen_t addrlen;
	char name[URL_HOST_MAX + URL_PORT_MAX + 4];	/* "host:port" */
};

struct http_response {
	int status;			/* e.g. 200, 206, 416 */
	long long content_length;	/* -1 if absent */
	long long range_first;		/* Content-Range, -1 if absent */
	long long range_last;
	long long range_total;
	int accept_ranges;		/* "Accept-Ranges: bytes" seen */
	size_t body_off;		/* body bytes already read: buf[body_off..] */
	size_t body_len;
};

/* Parse "http://host[:port][/path]".  Returns 0, or -1 with a message. */
int url_parse(const char *s, struct url *u, const char **why);

/* Resolve u->host/u->port with getaddrinfo().  Returns 0 or -1. */
int endpoint_resolve(const struct url *u, struct endpoint *ep);

/* Connect to ep, with send/receive timeouts of timeout_sec (0: none). */
int http_connect(const struct endpoint *ep, int timeout_sec);

/* Send all of buf, retrying on EINTR and short writes. */
int net_send_all(int fd, const void *buf, size_t len);

/*
 * Send "METHOD path HTTP/1.1" with a Range header for [first, last] when
 * first >= 0.  Returns 0 or -1 (errno set).
 */
int http_send_request(int fd, const char *method, const struct url *u,
		      long long first, long long last);

/*
 * Read and parse a response header into r.  buf receives the raw bytes;
 * any body bytes that arrived with the header are left in buf at
 * r->body_off.  Returns 0, or -1 with errno set (EPROTO for a malformed
 * response, ECONNRESET if the peer closed early).
 */
int http_read_response(int fd, char *buf, size_t cap, struct http_response *r);

/* recv() that retries on EINTR and keeps the traffic statistics. */
ssize_t http_recv(int fd, void *buf, size_t len);

/*
 * Ask the server for the size of the resource (HEAD request).
 * *ranges is set when the server advertises byte ranges.
 */
int http_probe(const struct endpoint *ep, const struct url *u, int timeout_sec,
	       long long *size, int *ranges);

/* Traffic statistics. */
unsigned long long http_stats_bytes_in(void);
unsigned long http_stats_requests(void);

#endif /* CHUNKGET_HTTP_H */
