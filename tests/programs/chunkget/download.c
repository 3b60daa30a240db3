/*
 * download.c - split the file into ranges and fetch them in parallel.
 *
 * download_run() probes the server, lays out one chunk per thread, starts
 * the signal/checkpoint thread and the progress meter, then one
 * downloader thread per chunk.  Each downloader opens its own connection,
 * asks for its byte range and pwrite()s what it receives at the right
 * offset of the output file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "download.h"
#include "log.h"
#include "progress.h"
#include "resume.h"
#include "signals.h"

#define RECV_BUF_SIZE	16384
#define MIN_CHUNK_SIZE	4096

const struct dl_params *dl;
struct endpoint dl_server;
long long total_size;
struct chunk *chunks;
int nchunks;
int out_fd = -1;

pthread_mutex_t bwritten_lock = PTHREAD_MUTEX_INITIALIZER;
long long bytes_written;
int chunks_done;
int chunks_failed;

int download_failed;

enum fetch_status {
	FETCH_DONE,		/* the whole range is on disk */
	FETCH_RETRY,		/* transient error, try again */
	FETCH_FATAL,		/* retrying will not help */
	FETCH_ABORTED		/* another chunk failed, stop quietly */
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Write n received bytes at *pos and account for them.  Returns 0, or -1
 * on a local I/O error (already logged).
 */
static int store_data(struct chunk *c, long long *pos, const char *data,
		      size_t n)
{
	ssize_t w;

	if ((long long)n > c->end - *pos)	/* never write past our range */
		n = (size_t)(c->end - *pos);

	while (n > 0) {
		w = pwrite(out_fd, data, n, (off_t)*pos);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			log_errno(errno, "chunk %d: write to %s at offset %lld",
				  c->index, dl->output, *pos);
			return -1;
		}
		pthread_mutex_lock(&bwritten_lock);
		bytes_written += w;			// RACE(bwritten)
		pthread_mutex_unlock(&bwritten_lock);

		*pos += w;
		c->offset = *pos;			// RACE(chunkpos)
		data += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Check the response to "GET" with "Range: bytes=pos-(end-1)". */
static enum fetch_status check_response(const struct chunk *c, long long pos,
					const struct http_response *r)
{
	if (r->status == 206) {
		if (r->range_first != pos || r->range_last < pos) {
			log_warn("chunk %d: asked for offset %lld, got range %lld-%lld",
				 c->index, pos, r->range_first, r->range_last);
			return FETCH_RETRY;
		}
		return FETCH_DONE;
	}
	if (r->status == 200 && pos == 0 && c->end == total_size) {
		/* Server ignored Range, but we wanted the whole file anyway. */
		return FETCH_DONE;
	}
	if (r->status == 200) {
		log_error("chunk %d: server ignores Range requests", c->index);
		return FETCH_FATAL;
	}
	if (r->status >= 500) {
		log_warn("chunk %d: server error %d", c->index, r->status);
		return FETCH_RETRY;
	}
	log_error("chunk %d: unexpected HTTP status %d", c->index, r->status);
	return FETCH_FATAL;
}

/* One connection: fetch [*pos, c->end) and store it. */
static enum fetch_status fetch_range(struct chunk *c, long long *pos,
				     char *buf, size_t bufsize)
{
	struct http_response resp;
	enum fetch_status st;
	ssize_t n;
	int fd;

	fd = http_connect(&dl_server, dl->timeout_sec);
	if (fd < 0) {
		log_errno(errno, "chunk %d: connect to %s", c->index,
			  dl_server.name);
		return FETCH_RETRY;
	}
	if (http_send_request(fd, "GET", &dl->url, *pos, c->end - 1) < 0) {
		log_errno(errno, "chunk %d: sending request", c->index);
		close(fd);
		return FETCH_RETRY;
	}
	if (http_read_response(fd, buf, bufsize, &resp) < 0) {
		log_errno(errno, "chunk %d: reading response header", c->index);
		close(fd);
		return FETCH_RETRY;
	}
	st = check_response(c, *pos, &resp);
	if (st != FETCH_DONE) {
		close(fd);
		return st;
	}
	log_debug("chunk %d: receiving bytes %lld-%lld", c->index, *pos,
		  c->end - 1);

	/* Body bytes that arrived together with the header. */
	if (resp.body_len > 0 &&
	    store_data(c, pos, buf + resp.body_off, resp.body_len) < 0) {
		close(fd);
		return FETCH_FATAL;
	}

	while (*pos < c->end) {
		if (download_failed) {			// RACE(failed)
			close(fd);
			return FETCH_ABORTED;
		}
		n = http_recv(fd, buf, bufsize);
		if (n < 0) {
			log_errno(errno, "chunk %d: receive at offset %lld",
				  c->index, *pos);
			close(fd);
			return FETCH_RETRY;
		}
		if (n == 0) {
			log_warn("chunk %d: connection closed at offset %lld, "
				 "%lld bytes short", c->index, *pos,
				 c->end - *pos);
			close(fd);
			return FETCH_RETRY;
		}
		if (store_data(c, pos, buf, (size_t)n) < 0) {
			close(fd);
			return FETCH_FATAL;
		}
	}
	close(fd);
	return FETCH_DONE;
}

static void *chunk_worker(void *arg)
{
	struct chunk *c = arg;
	char buf[RECV_BUF_SIZE];
	long long pos, before;
	enum fetch_status st = FETCH_DONE;
	int failures = 0;

	pos = c->offset;				// RACE(chunkpos)
	while (pos < c->end) {
		if (download_failed) {			// RACE(failed)
			st = FETCH_ABORTED;
			break;
		}
		before = pos;
		st = fetch_range(c, &pos, buf, sizeof(buf));
		if (st != FETCH_RETRY)
			break;
		if (pos > before)
			failures = 0;	/* made progress: a fresh budget */
		if (++failures > dl->retries) {
			st = FETCH_FATAL;
			break;
		}
		log_info("chunk %d: retrying from offset %lld (attempt %d of %d)",
			 c->index, pos, failures + 1, dl->retries + 1);
		sleep_ms((long)dl->retry_delay_ms * failures);
	}

	switch (st) {
	case FETCH_DONE:
		pthread_mutex_lock(&bwritten_lock);
		chunks_done++;				// NORACE
		pthread_mutex_unlock(&bwritten_lock);
		log_debug("chunk %d: complete", c->index);
		break;
	case FETCH_ABORTED:
		log_info("chunk %d: stopping at offset %lld, another chunk failed",
			 c->index, pos);
		break;
	default:
		pthread_mutex_lock(&bwritten_lock);
		chunks_failed++;			// NORACE
		pthread_mutex_unlock(&bwritten_lock);
		/* Tell the other downloaders not to bother any more. */
		download_failed = 1;			// RACE(failed)
		log_error("chunk %d: giving up at offset %lld", c->index, pos);
		break;
	}
	return NULL;
}

/* Lay out nchunks ranges of (nearly) equal size. */
static int setup_chunks(int want)
{
	long long per, start;

	nchunks = want;
	if (nchunks > MAX_CHUNKS)
		nchunks = MAX_CHUNKS;
	if (total_size / nchunks < MIN_CHUNK_SIZE)
		nchunks = (int)(total_size / MIN_CHUNK_SIZE);
	if (nchunks < 1)
		nchunks = 1;

	chunks = calloc((size_t)nchunks, sizeof(*chunks));
	if (chunks == NULL) {
		log_errno(errno, "allocating %d chunks", nchunks);
		return -1;
	}
	per = total_size / nchunks;
	start = 0;
	for (int i = 0; i < nchunks; i++) {
		chunks[i].index = i;
		chunks[i].start = start;
		chunks[i].end = i == nchunks - 1 ? total_size : start + per;
		chunks[i].offset = start;
		start = chunks[i].end;
	}
	return 0;
}

static int open_output(int resuming)
{
	int flags = O_WRONLY | O_CREAT;

	if (!resuming)
		flags |= O_TRUNC;
	out_fd = open(dl->output, flags, 0644);
	if (out_fd < 0) {
		log_errno(errno, "cannot open %s", dl->output);
		return -1;
	}
	if (ftruncate(out_fd, (off_t)total_size) < 0) {
		log_errno(errno, "cannot size %s to %lld bytes", dl->output,
			  total_size);
		close(out_fd);
		out_fd = -1;
		return -1;
	}
	return 0;
}

static void report(double secs)
{
	double rate = secs > 0 ? (double)bytes_written / secs : 0;

	log_info("%lld bytes in %.2f s (%.1f KiB/s), %lu requests, "
		 "%llu bytes received", bytes_written, secs, rate / 1024,
		 http_stats_requests(), http_stats_bytes_in());
}

enum dl_result download_run(const struct dl_params *p)
{
	struct progress *pg;
	pthread_t *tids;
	enum dl_result result;
	double t0;
	int ranges, started, done;

	dl = p;
	if (endpoint_resolve(&p->url, &dl_server) < 0)
		return DL_ERROR;
	if (http_probe(&dl_server, &p->url, p->timeout_sec, &total_size,
		       &ranges) < 0)
		return DL_ERROR;
	log_info("%s: %lld bytes%s", p->url_str, total_size,
		 ranges ? "" : " (no range support)");

	if (setup_chunks(ranges ? p->nthreads : 1) < 0)
		return DL_ERROR;
	if (p->resume) {
		if (resume_load(p->state_path) < 0)
			goto fail_chunks;
	} else if (access(p->state_path, F_OK) == 0) {
		log_warn("overwriting stale state file %s (use -r to resume)",
			 p->state_path);
	}
	bytes_written = 0;
	for (int i = 0; i < nchunks; i++)
		bytes_written += chunks[i].offset - chunks[i].start;
	if (open_output(p->resume) < 0)
		goto fail_chunks;

	tids = calloc((size_t)nchunks, sizeof(*tids));
	if (tids == NULL) {
		log_errno(errno, "allocating thread table");
		goto fail_output;
	}

	/* The checkpoint thread must be first: it blocks the signals. */
	if (signals_start(p->state_path, p->checkpoint_ms) < 0)
		goto fail_tids;
	pg = progress_start(p->progress_ms, p->progress_bar);

	t0 = log_elapsed();
	log_info("downloading with %d connection%s", nchunks,
		 nchunks == 1 ? "" : "s");
	for (started = 0; started < nchunks; started++) {
		int err = pthread_create(&tids[started], NULL, chunk_worker,
					 &chunks[started]);
		if (err != 0) {
			log_errno(err, "cannot start downloader %d", started);
			break;
		}
	}
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);

	progress_stop(pg);
	signals_stop();

	pthread_mutex_lock(&bwritten_lock);
	done = chunks_done;				// NORACE
	pthread_mutex_unlock(&bwritten_lock);

	if (fsync(out_fd) < 0 && errno != EINVAL)
		log_errno(errno, "fsync %s", p->output);
	close(out_fd);

	if (done == nchunks) {
		if (unlink(p->state_path) < 0 && errno != ENOENT)
			log_errno(errno, "removing %s", p->state_path);
		report(log_elapsed() - t0);
		log_info("saved %s", p->output);
		result = DL_OK;
	} else {
		if (download_failed)
			log_error("download failed");
		else
			log_error("only %d of %d chunks finished", done, nchunks);
		if (resume_save(p->state_path) == 0)
			log_error("progress saved in %s; rerun with -r to resume",
				  p->state_path);
		report(log_elapsed() - t0);
		result = DL_INCOMPLETE;
	}
	/* The chunk table is left for exit() to reclaim. */
	free(tids);
	return result;

fail_tids:
	free(tids);
fail_output:
	close(out_fd);
	out_fd = -1;
fail_chunks:
	free(chunks); // FALSE-ALARM: only reached before any downloader starts; signals_start returns -1 only when its pthread_create failed, which locksmith does not follow across the return
	chunks = NULL;
	return DL_ERROR;
}
