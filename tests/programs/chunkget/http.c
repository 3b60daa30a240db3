/*
 * http.c - URL parsing, connection set-up and HTTP/1.1 framing.
 */
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "http.h"
#include "log.h"

#define USER_AGENT "chunkget/1.2"

/*
 * Traffic statistics.  The request counter is kept under stats_lock; the
 * byte counter is bumped on the receive fast path and, as the progress
 * meter only wants an estimate, was left without the lock.
 */
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long requests_sent;
static unsigned long long bytes_in;

int url_parse(const char *s, struct url *u, const char **why)
{
	const char *host, *end, *colon, *slash;
	size_t hlen, plen;

	memset(u, 0, sizeof(*u));
	if (strncmp(s, "http://", 7) != 0) {
		*why = "only http:// URLs are supported";
		return -1;
	}
	host = s + 7;
	slash = strchr(host, '/');
	end = slash != NULL ? slash : host + strlen(host);
	colon = memchr(host, ':', (size_t)(end - host));

	hlen = (size_t)((colon != NULL ? colon : end) - host);
	if (hlen == 0 || hlen >= sizeof(u->host)) {
		*why = "missing or overlong host name";
		return -1;
	}
	memcpy(u->host, host, hlen);

	if (colon != NULL) {
		plen = (size_t)(end - colon - 1);
		if (plen == 0 || plen >= sizeof(u->port)) {
			*why = "bad port";
			return -1;
		}
		memcpy(u->port, colon + 1, plen);
		for (size_t i = 0; i < plen; i++) {
			if (!isdigit((unsigned char)u->port[i])) {
				*why = "port is not a number";
				return -1;
			}
		}
	} else {
		strcpy(u->port, "80");
	}

	if (slash == NULL) {
		strcpy(u->path, "/");
	} else {
		if (strlen(slash) >= sizeof(u->path)) {
			*why = "path too long";
			return -1;
		}
		strcpy(u->path, slash);
	}
	return 0;
}

int endpoint_resolve(const struct url *u, struct endpoint *ep)
{
	struct addrinfo hints, *res, *ai;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(u->host, u->port, &hints, &res);
	if (rc != 0) {
		log_error("cannot resolve %s: %s", u->host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_addrlen <= sizeof(ep->addr))
			break;
	}
	if (ai == NULL) {
		freeaddrinfo(res);
		log_error("no usable address for %s", u->host);
		return -1;
	}
	memset(ep, 0, sizeof(*ep));
	memcpy(&ep->addr, ai->ai_addr, ai->ai_addrlen);
	ep->addrlen = ai->ai_addrlen;
	snprintf(ep->name, sizeof(ep->name), "%s:%s", u->host, u->port);
	freeaddrinfo(res);
	return 0;
}

int http_connect(const struct endpoint *ep, int timeout_sec)
{
	struct timeval tv;
	int fd, saved;

	fd = socket(ep->addr.ss_family, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (timeout_sec > 0) {
		tv.tv_sec = timeout_sec;
		tv.tv_usec = 0;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
		    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
			goto fail;
	}
	while (connect(fd, (const struct sockaddr *)&ep->addr, ep->addrlen) < 0) {
		if (errno != EINTR)
			goto fail;
	}
	return fd;

fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int net_send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int http_send_request(int fd, const char *method, const struct url *u,
		      long long first, long long last)
{
	char req[URL_PATH_MAX + URL_HOST_MAX + 256];
	char range[80] = "";
	int len;

	if (first >= 0)
		snprintf(range, sizeof(range), "Range: bytes=%lld-%lld\r\n",
			 first, last);
	len = snprintf(req, sizeof(req),
		       "%s %s HTTP/1.1\r\n"
		       "Host: %s:%s\r\n"
		       "User-Agent: " USER_AGENT "\r\n"
		       "Accept: */*\r\n"
		       "%s"
		       "Connection: close\r\n"
		       "\r\n",
		       method, u->path, u->host, u->port, range);
	if (len < 0 || (size_t)len >= sizeof(req)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (net_send_all(fd, req, (size_t)len) < 0)
		return -1;

	pthread_mutex_lock(&stats_lock);
	requests_sent++;			// NORACE
	pthread_mutex_unlock(&stats_lock);
	return 0;
}

ssize_t http_recv(int fd, void *buf, size_t len)
{
	ssize_t n;

	do {
		n = recv(fd, buf, len, 0);
	} while (n < 0 && errno == EINTR);
	if (n > 0)
		bytes_in += (unsigned long long)n;	// RACE(stats)
	return n;
}

/* Find "\r\n\r\n" in buf[0..len); returns the offset just past it, or 0. */
static size_t header_end(const char *buf, size_t len)
{
	for (size_t i = 3; i < len; i++) {
		if (buf[i] == '\n' && buf[i - 1] == '\r' &&
		    buf[i - 2] == '\n' && buf[i - 3] == '\r')
			return i + 1;
	}
	return 0;
}

/* If line starts with "name:" (any case), return the trimmed value. */
static const char *header_value(const char *line, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < n; i++) {
		if (tolower((unsigned char)line[i]) != tolower((unsigned char)name[i]))
			return NULL;
	}
	if (line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static int parse_header_line(const char *line, struct http_response *r)
{
	const char *v;

	if ((v = header_value(line, "Content-Length")) != NULL) {
		char *end;

		errno = 0;
		r->content_length = strtoll(v, &end, 10);
		if (errno != 0 || end == v || r->content_length < 0)
			return -1;
	} else if ((v = header_value(line, "Content-Range")) != NULL) {
		if (sscanf(v, "bytes %lld-%lld/%lld", &r->range_first,
			   &r->range_last, &r->range_total) != 3)
			return -1;
	} else if ((v = header_value(line, "Accept-Ranges")) != NULL) {
		r->accept_ranges = strncmp(v, "bytes", 5) == 0;
	}
	return 0;
}

int http_read_response(int fd, char *buf, size_t cap, struct http_response *r)
{
	size_t len = 0, hlen = 0;
	char *line, *next;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	r->content_length = -1;
	r->range_first = r->range_last = r->range_total = -1;

	while (hlen == 0) {
		if (len + 1 >= cap) {
			errno = EPROTO;		/* header does not fit */
			return -1;
		}
		n = http_recv(fd, buf + len, cap - 1 - len);
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		len += (size_t)n;
		hlen = header_end(buf, len);
	}

	r->body_off = hlen;
	r->body_len = len - hlen;
	buf[hlen - 2] = '\0';		/* cut after the last header's CRLF */

	line = buf;
	next = strstr(line, "\r\n");
	if (next == NULL)
		goto bad;
	*next = '\0';
	if (sscanf(line, "HTTP/%*d.%*d %d", &r->status) != 1)
		goto bad;

	for (line = next + 2; *line != '\0'; line = next + 2) {
		next = strstr(line, "\r\n");
		if (next == NULL)
			goto bad;
		*next = '\0';
		if (parse_header_line(line, r) < 0)
			goto bad;
	}
	return 0;

bad:
	errno = EPROTO;
	return -1;
}

int http_probe(const struct endpoint *ep, const struct url *u, int timeout_sec,
	       long long *size, int *ranges)
{
	struct http_response resp;
	char buf[8192];
	int fd;

	fd = http_connect(ep, timeout_sec);
	if (fd < 0) {
		log_errno(errno, "connect to %s", ep->name);
		return -1;
	}
	if (http_send_request(fd, "HEAD", u, -1, -1) < 0 ||
	    http_read_response(fd, buf, sizeof(buf), &resp) < 0) {
		log_errno(errno, "HEAD %s from %s", u->path, ep->name);
		close(fd);
		return -1;
	}
	close(fd);

	if (resp.status != 200) {
		log_error("HEAD %s: server answered %d", u->path, resp.status);
		return -1;
	}
	if (resp.content_length < 0) {
		log_error("HEAD %s: server did not send Content-Length", u->path);
		return -1;
	}
	*size = resp.content_length;
	*ranges = resp.accept_ranges;
	return 0;
}

unsigned long long http_stats_bytes_in(void)
{
	return bytes_in;			// RACE(stats)
}

unsigned long http_stats_requests(void)
{
	unsigned long n;

	pthread_mutex_lock(&stats_lock);
	n = requests_sent;			// NORACE
	pthread_mutex_unlock(&stats_lock);
	return n;
}
