/*
 * selftest.c - built-in end-to-end test against a loopback server.
 *
 * The test server is a forked child process (one grandchild per
 * connection), started before chunkget creates any thread.  It serves a
 * deterministic byte pattern with HEAD and Range support, throttled so
 * that the downloaders overlap, and can be told to drop every connection
 * that reaches a given offset, which makes one chunk fail for good.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "download.h"
#include "log.h"
#include "resume.h"
#include "selftest.h"

#define ST_PATH		"/selftest.bin"
#define ST_SIZE		(2LL * 1024 * 1024)
#define ST_CONNS	4
#define ST_PIECE	8192		/* bytes per send() */
#define ST_DELAY_US	2000		/* pause between pieces */
/* Where the faulty server cuts chunk 1 (of 4) short. */
#define ST_FAIL_AT	(ST_SIZE / ST_CONNS + 40 * 1024 + 123)

struct st_server {
	pid_t pid;
	int port;
	long long fail_at;		/* -1: healthy */
};

static unsigned char pattern_byte(long long off)
{
	unsigned long long x = (unsigned long long)off;

	x ^= x >> 11;
	x *= 0x9E3779B97F4A7C15ULL;
	return (unsigned char)(x >> 56);
}

static void fill_pattern(unsigned char *buf, long long off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern_byte(off + (long long)i);
}

/* ---- the server (runs in child processes, never in a thread) ---- */

static void pause_us(long us)
{
	struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int reply(int fd, const char *status, const char *extra,
		 long long length)
{
	char hdr[512];
	int n;

	n = snprintf(hdr, sizeof(hdr),
		     "HTTP/1.1 %s\r\n"
		     "Server: chunkget-selftest\r\n"
		     "Accept-Ranges: bytes\r\n"
		     "Content-Length: %lld\r\n"
		     "%s"
		     "Connection: close\r\n\r\n", status, length, extra);
	return net_send_all(fd, hdr, (size_t)n);
}

static int read_request(int fd, char *buf, size_t cap)
{
	size_t len = 0;
	ssize_t n;

	while (len + 1 < cap) {
		n = recv(fd, buf + len, cap - 1 - len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		len += (size_t)n;
		buf[len] = '\0';
		if (strstr(buf, "\r\n\r\n") != NULL)
			return 0;
	}
	return -1;
}

static void serve_connection(int fd, const struct st_server *srv)
{
	char req[4096], method[16], path[256], extra[128];
	unsigned char piece[ST_PIECE];
	long long first = 0, last = ST_SIZE - 1, stop, pos;
	const char *range;
	size_t n;

	if (read_request(fd, req, sizeof(req)) < 0)
		return;
	if (sscanf(req, "%15s %255s HTTP/1.", method, path) != 2) {
		reply(fd, "400 Bad Request", "", 0);
		return;
	}
	if (strcmp(path, ST_PATH) != 0) {
		reply(fd, "404 Not Found", "", 0);
		return;
	}
	if (strcmp(method, "HEAD") == 0) {
		reply(fd, "200 OK", "", ST_SIZE);
		return;
	}
	if (strcmp(method, "GET") != 0) {
		reply(fd, "405 Method Not Allowed", "", 0);
		return;
	}

	range = strstr(req, "\r\nRange: bytes=");
	if (range != NULL) {
		if (sscanf(range, "\r\nRange: bytes=%lld-%lld", &first,
			   &last) != 2 || first < 0 || first > last ||
		    first >= ST_SIZE) {
			snprintf(extra, sizeof(extra),
				 "Content-Range: bytes */%lld\r\n", ST_SIZE);
			reply(fd, "416 Range Not Satisfiable", extra, 0);
			return;
		}
		if (last >= ST_SIZE)
			last = ST_SIZE - 1;
		snprintf(extra, sizeof(extra),
			 "Content-Range: bytes %lld-%lld/%lld\r\n", first, last,
			 ST_SIZE);
		if (reply(fd, "206 Partial Content", extra, last - first + 1) < 0)
			return;
	} else if (reply(fd, "200 OK", "", ST_SIZE) < 0) {
		return;
	}

	/* The injected fault: the connection dies when it reaches fail_at. */
	stop = last + 1;
	if (srv->fail_at >= first && srv->fail_at <= last)
		stop = srv->fail_at;

	for (pos = first; pos < stop; pos += (long long)n) {
		n = stop - pos < ST_PIECE ? (size_t)(stop - pos) : ST_PIECE;
		fill_pattern(piece, pos, n);
		if (net_send_all(fd, piece, n) < 0)
			return;		/* client went away */
		pause_us(ST_DELAY_US);
	}
}

static void server_loop(int lfd, const struct st_server *srv)
{
	struct timeval tv = { 5, 0 };
	sigset_t none;
	pid_t pid;
	int fd;

	/* Whatever the parent blocked, the server must die on SIGTERM. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;	/* reap finished connection handlers */
		fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			_exit(1);
		}
		pid = fork();
		if (pid == 0) {
			close(lfd);
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			serve_connection(fd, srv);
			close(fd);
			_exit(0);
		}
		close(fd);
	}
}

static int server_start(struct st_server *srv, long long fail_at)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int lfd, one = 1;

	srv->fail_at = fail_at;
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0) {
		log_errno(errno, "selftest: socket");
		return -1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    listen(lfd, 32) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len) < 0) {
		log_errno(errno, "selftest: cannot listen on 127.0.0.1");
		close(lfd);
		return -1;
	}
	srv->port = ntohs(sin.sin_port);

	srv->pid = fork();
	if (srv->pid < 0) {
		log_errno(errno, "selftest: fork");
		close(lfd);
		return -1;
	}
	if (srv->pid == 0)
		server_loop(lfd, srv);	/* never returns */
	close(lfd);
	log_debug("selftest: server pid %ld on port %d", (long)srv->pid,
		  srv->port);
	return 0;
}

static void server_stop(struct st_server *srv)
{
	if (srv->pid <= 0)
		return;
	kill(srv->pid, SIGTERM);
	waitpid(srv->pid, NULL, 0);
	srv->pid = -1;
}

/* ---- checks ---- */

/* Compare out[from, to) with the pattern. */
static int check_range(int fd, long long from, long long to)
{
	unsigned char got[ST_PIECE], want[ST_PIECE];
	ssize_t n;
	size_t len;

	while (from < to) {
		len = to - from < ST_PIECE ? (size_t)(to - from) : ST_PIECE;
		n = pread(fd, got, len, (off_t)from);
		if (n <= 0) {
			log_error("selftest: short read at offset %lld", from);
			return -1;
		}
		fill_pattern(want, from, (size_t)n);
		if (memcmp(got, want, (size_t)n) != 0) {
			for (ssize_t i = 0; i < n; i++) {
				if (got[i] != want[i]) {
					log_error("selftest: wrong byte at offset %lld",
						  from + (long long)i);
					break;
				}
			}
			return -1;
		}
		from += n;
	}
	return 0;
}

/* After the faulty run: the state must describe exactly what is on disk. */
static int check_partial(const char *out, const char *state)
{
	struct resume_info ri;
	int fd, rc = 0, incomplete = 0;

	if (resume_parse(state, &ri) < 0)
		return -1;
	if (ri.size != ST_SIZE || ri.nchunks != ST_CONNS) {
		log_error("selftest: state has size %lld, %d chunks", ri.size,
			  ri.nchunks);
		return -1;
	}
	fd = open(out, O_RDONLY);
	if (fd < 0) {
		log_errno(errno, "selftest: open %s", out);
		return -1;
	}
	for (int i = 0; i < ri.nchunks && rc == 0; i++) {
		log_debug("selftest: chunk %d stopped at %lld of %lld-%lld", i,
			  ri.chunk[i].offset, ri.chunk[i].start, ri.chunk[i].end);
		if (ri.chunk[i].offset < ri.chunk[i].end)
			incomplete++;
		rc = check_range(fd, ri.chunk[i].start, ri.chunk[i].offset);
	}
	close(fd);
	if (rc == 0 && ri.chunk[1].offset != ST_FAIL_AT) {
		log_error("selftest: chunk 1 stopped at %lld, expected %lld",
			  ri.chunk[1].offset, (long long)ST_FAIL_AT);
		rc = -1;
	}
	if (rc == 0 && incomplete == 0) {
		log_error("selftest: the faulty download was not interrupted");
		rc = -1;
	}
	return rc;
}

static int check_complete(const char *out)
{
	struct stat sb;
	int fd, rc;

	fd = open(out, O_RDONLY);
	if (fd < 0) {
		log_errno(errno, "selftest: open %s", out);
		return -1;
	}
	if (fstat(fd, &sb) < 0 || sb.st_size != ST_SIZE) {
		log_error("selftest: %s has the wrong size", out);
		close(fd);
		return -1;
	}
	rc = check_range(fd, 0, ST_SIZE);
	close(fd);
	return rc;
}

/* ---- driver ---- */

static void selftest_params(struct dl_params *p, char *url, size_t urlcap,
			    const struct st_server *srv, const char *out,
			    const char *state)
{
	const char *why;

	snprintf(url, urlcap, "http://127.0.0.1:%d" ST_PATH, srv->port);
	memset(p, 0, sizeof(*p));
	p->url_str = url;
	if (url_parse(url, &p->url, &why) < 0)	/* cannot happen */
		log_error("selftest: %s", why);
	p->output = out;
	p->state_path = state;
	p->nthreads = ST_CONNS;
	p->retries = 2;
	p->retry_delay_ms = 10;
	p->timeout_sec = 5;
	p->checkpoint_ms = 2;
	p->progress_ms = 3;
	p->progress_bar = 0;
}

static int phase_one(const char *argv0, int verbosity)
{
	char out[128], state[160], url[64], verb[8];
	struct st_server srv;
	struct dl_params p;
	enum dl_result r;

	snprintf(out, sizeof(out), "/tmp/chunkget-selftest-%ld.bin",
		 (long)getpid());
	snprintf(state, sizeof(state), "%s.cgstate", out);
	unlink(out);
	unlink(state);

	log_info("selftest: phase 1, server fails at offset %lld",
		 (long long)ST_FAIL_AT);
	if (server_start(&srv, ST_FAIL_AT) < 0)
		return 1;
	selftest_params(&p, url, sizeof(url), &srv, out, state);
	r = download_run(&p);
	server_stop(&srv);

	if (r != DL_INCOMPLETE) {
		log_error("selftest: phase 1 returned %d, expected %d", (int)r,
			  (int)DL_INCOMPLETE);
		goto fail;
	}
	if (check_partial(out, state) < 0)
		goto fail;
	log_info("selftest: phase 1 ok (%lu checkpoints)", resume_saves());

	/* Phase 2 runs in a fresh process image, as a user's rerun would. */
	snprintf(verb, sizeof(verb), "%d", verbosity);
	execlp(argv0, argv0, "--selftest-resume", out, "--selftest-verbosity",
	       verb, (char *)NULL);
	log_errno(errno, "selftest: cannot re-execute %s", argv0);
fail:
	unlink(out);
	unlink(state);
	fprintf(stderr, "selftest FAILED\n");
	return 1;
}

static int phase_two(const char *out)
{
	char state[160], url[64];
	struct st_server srv;
	struct dl_params p;
	enum dl_result r;
	int rc = 1;

	snprintf(state, sizeof(state), "%s.cgstate", out);
	log_info("selftest: phase 2, resuming %s", out);
	if (server_start(&srv, -1) < 0)
		return 1;
	selftest_params(&p, url, sizeof(url), &srv, out, state);
	p.resume = 1;
	r = download_run(&p);
	server_stop(&srv);

	if (r != DL_OK) {
		log_error("selftest: phase 2 returned %d, expected %d", (int)r,
			  (int)DL_OK);
	} else if (access(state, F_OK) == 0) {
		log_error("selftest: state file %s was not removed", state);
	} else if (check_complete(out) == 0) {
		log_info("selftest: phase 2 ok");
		rc = 0;
	}
	unlink(out);
	unlink(state);
	return rc;
}

int selftest_run(const char *argv0, const char *resume_output, int verbosity)
{
	int rc;

	if (resume_output == NULL)
		return phase_one(argv0, verbosity);
	rc = phase_two(resume_output);
	fprintf(stderr, "selftest %s\n", rc == 0 ? "passed" : "FAILED");
	return rc;
}
