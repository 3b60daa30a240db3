/*
 * chunkget - fetch a file over HTTP with several parallel range requests.
 *
 * Usage: chunkget [options] http://host[:port]/path
 *
 * chunkget asks the server for the size of the file (HEAD), splits it into
 * N byte ranges and starts one downloader thread per range.  Every
 * downloader opens its own connection, sends "Range: bytes=a-b" and
 * pwrite()s the received bytes at their offset in the output file.  A
 * signal-waiter thread (as in aget) handles SIGINT/SIGTERM/SIGALRM with
 * sigwait and periodically saves a resume state file (how far each range
 * got), so that an interrupted or failed download can be continued with
 * -r.  A progress-meter thread samples the download and draws a bar.
 * If one range keeps failing, the others stop early ("fail fast") and the
 * state is saved for a later resume.
 *
 * Modules:
 *   main.c      option parsing
 *   download.c  chunk layout, downloader threads, shared download state
 *   http.c      URL parsing, connections, HTTP framing, traffic statistics
 *   resume.c    resume state file (save / load)
 *   signals.c   signal-waiter / checkpoint thread
 *   progress.c  progress meter thread
 *   log.c       serialized logging
 *   selftest.c  built-in test with a loopback server (forked processes)
 *
 * Build:
 *   gcc -std=gnu11 -Wall -Wextra -pthread *.c -o chunkget
 * ThreadSanitizer build of the self-test:
 *   gcc -std=gnu11 -Wall -Wextra -fsanitize=thread -g -O1 -pthread *.c \
 *       -o chunkget && ./chunkget --selftest
 *
 * The self-test (-T / --selftest) forks a throttled HTTP server on
 * 127.0.0.1 that drops chunk 1 at a fixed offset on every attempt, runs a
 * 4-connection download into /tmp (checkpoint every 2 ms, meter every
 * 3 ms), expects it to fail with a state file that matches the data on
 * disk, then re-executes itself to resume the download from a healthy
 * server and compares the result byte for byte.  It takes well under a
 * second and exercises every race below on each run.
 *
 * Planted data races (each access line that can run while other threads
 * are running carries a RACE comment naming the id; accesses made before
 * the first pthread_create or after the final joins cannot race and are
 * left unannotated):
 *
 *   bwritten  - bytes_written (download.c).  Downloaders add to it under
 *               bwritten_lock in store_data(), but the checkpoint code,
 *               format_state() in resume.c, reads it without the lock
 *               when called from the signal-waiter thread
 *               (signal_waiter -> sigalrm_handler -> resume_save).  The
 *               same bug as aget's bwritten race in its SIGALRM handler.
 *   chunkpos  - struct chunk.offset (download.c).  Each downloader
 *               advances the offset of its own chunk without any lock
 *               (store_data, chunk_worker); the checkpoint thread
 *               (format_state in resume.c) and the progress meter
 *               (take_sample in progress.c) read all offsets unlocked,
 *               so the state file can be inconsistent with bytes_written
 *               (and a 64-bit offset may be torn on 32-bit targets).
 *   failed    - download_failed (download.c).  A downloader that gives up
 *               sets the flag without a lock (chunk_worker); the other
 *               downloaders poll it without a lock (chunk_worker,
 *               fetch_range) and so does the progress meter
 *               (take_sample).  A plain int used as a cancellation flag.
 *   stats     - bytes_in (http.c).  Traffic counter incremented with "+="
 *               by every downloader in http_recv() without a lock (lost
 *               updates) and read by the progress meter through
 *               http_stats_bytes_in().
 *
 * Race-free shared data (the important accesses carry a NORACE comment):
 *
 *   chunks_done, chunks_failed (download.c)  - always under the global
 *                mutex bwritten_lock (downloaders, meter, download_run).
 *   requests_sent (http.c)      - always under the global mutex stats_lock.
 *   saves_done (resume.c)       - always under the global mutex save_lock.
 *   progress_shown, log_counts (log.c) - always under the global mutex
 *                log_lock (which also serializes stderr and strerror).
 *   struct progress.stop        - under pg->lock, a mutex inside the one
 *                progress object that progress_start() allocates (called
 *                once) and passes by pointer to the meter thread; its
 *                other fields are set before the pointer is published.
 *   configuration: dl, dl_server, total_size, chunks, nchunks,
 *                chunks[].start/end, out_fd, the log settings and the
 *                signal thread's settings - written before the first
 *                pthread_create and only read afterwards.
 *   bytes_written/download_failed reads in download_run() and report()
 *                after the join loop over the downloader threads and the
 *                joins of the meter and signal threads (not annotated).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "download.h"
#include "log.h"
#include "selftest.h"

#define DEFAULT_CONNS		4
#define DEFAULT_RETRIES		3
#define DEFAULT_RETRY_DELAY	1000	/* ms */
#define DEFAULT_TIMEOUT		30	/* s */
#define DEFAULT_CHECKPOINT	2000	/* ms */
#define PROGRESS_PERIOD		250	/* ms */

enum {
	OPT_SELFTEST_RESUME = 0x100,
	OPT_SELFTEST_VERBOSITY
};

static const struct option long_options[] = {
	{ "connections",	required_argument, NULL, 'n' },
	{ "output",		required_argument, NULL, 'o' },
	{ "state",		required_argument, NULL, 's' },
	{ "resume",		no_argument,       NULL, 'r' },
	{ "checkpoint",		required_argument, NULL, 'c' },
	{ "retries",		required_argument, NULL, 'R' },
	{ "retry-delay",	required_argument, NULL, 'w' },
	{ "timeout",		required_argument, NULL, 't' },
	{ "quiet",		no_argument,       NULL, 'q' },
	{ "verbose",		no_argument,       NULL, 'v' },
	{ "selftest",		no_argument,       NULL, 'T' },
	{ "help",		no_argument,       NULL, 'h' },
	/* internal: second phase of the self-test */
	{ "selftest-resume",	required_argument, NULL, OPT_SELFTEST_RESUME },
	{ "selftest-verbosity",	required_argument, NULL, OPT_SELFTEST_VERBOSITY },
	{ NULL, 0, NULL, 0 }
};

static void usage(FILE *fp, const char *prog)
{
	fprintf(fp,
		"usage: %s [options] http://host[:port]/path\n"
		"       %s --selftest\n"
		"\n"
		"  -n, --connections N   parallel connections (1-%d, default %d)\n"
		"  -o, --output FILE     output file (default: last URL component)\n"
		"  -s, --state FILE      resume state file (default: OUTPUT.cgstate)\n"
		"  -r, --resume          continue a download from its state file\n"
		"  -c, --checkpoint MS   save the state every MS ms (default %d,\n"
		"                        0: only when interrupted or failing)\n"
		"  -R, --retries N       retries per chunk without progress (default %d)\n"
		"  -w, --retry-delay MS  back-off unit between retries (default %d)\n"
		"  -t, --timeout SEC     socket timeout (default %d, 0: none)\n"
		"  -q, --quiet           no progress bar\n"
		"  -v, --verbose         more messages (repeat for debugging)\n"
		"  -T, --selftest        run the built-in self-test and exit\n"
		"  -h, --help            show this help\n"
		"\n"
		"Send SIGALRM to save the state now; SIGINT/SIGTERM save it and exit.\n",
		prog, prog, MAX_CHUNKS, DEFAULT_CONNS, DEFAULT_CHECKPOINT,
		DEFAULT_RETRIES, DEFAULT_RETRY_DELAY, DEFAULT_TIMEOUT);
}

/* Parse a non-negative decimal option argument no larger than max. */
static int parse_uint(const char *arg, const char *what, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < 0 || v > max) {
		fprintf(stderr, "chunkget: invalid %s '%s' (0-%ld)\n", what, arg,
			max);
		return -1;
	}
	*out = v;
	return 0;
}

/* Default output name: the last component of the URL path. */
static char *default_output(const struct url *u)
{
	const char *base = strrchr(u->path, '/');
	size_t len;
	char *name;

	base = base != NULL ? base + 1 : u->path;
	len = strcspn(base, "?#");
	if (len == 0) {
		base = "index.html";
		len = strlen(base);
	}
	name = malloc(len + 1);
	if (name != NULL) {
		memcpy(name, base, len);
		name[len] = '\0';
	}
	return name;
}

int main(int argc, char **argv)
{
	struct dl_params p;
	const char *output = NULL, *state = NULL, *selftest_out = NULL;
	const char *why;
	char *owned_output = NULL, *owned_state = NULL;
	int selftest = 0, verbosity = 0, quiet = 0, opt;
	long v;
	enum dl_result r;

	memset(&p, 0, sizeof(p));
	p.nthreads = DEFAULT_CONNS;
	p.retries = DEFAULT_RETRIES;
	p.retry_delay_ms = DEFAULT_RETRY_DELAY;
	p.timeout_sec = DEFAULT_TIMEOUT;
	p.checkpoint_ms = DEFAULT_CHECKPOINT;
	p.progress_ms = PROGRESS_PERIOD;

	while ((opt = getopt_long(argc, argv, "n:o:s:rc:R:w:t:qvTh",
				  long_options, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (parse_uint(optarg, "connection count", MAX_CHUNKS, &v) < 0)
				return 2;
			if (v == 0) {
				fprintf(stderr, "chunkget: need at least one connection\n");
				return 2;
			}
			p.nthreads = (int)v;
			break;
		case 'o':
			output = optarg;
			break;
		case 's':
			state = optarg;
			break;
		case 'r':
			p.resume = 1;
			break;
		case 'c':
			if (parse_uint(optarg, "checkpoint period", 86400000L, &v) < 0)
				return 2;
			p.checkpoint_ms = (unsigned)v;
			break;
		case 'R':
			if (parse_uint(optarg, "retry count", 1000, &v) < 0)
				return 2;
			p.retries = (int)v;
			break;
		case 'w':
			if (parse_uint(optarg, "retry delay", 3600000L, &v) < 0)
				return 2;
			p.retry_delay_ms = (int)v;
			break;
		case 't':
			if (parse_uint(optarg, "timeout", 86400, &v) < 0)
				return 2;
			p.timeout_sec = (int)v;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'v':
			verbosity++;
			break;
		case 'T':
			selftest = 1;
			break;
		case OPT_SELFTEST_RESUME:
			selftest_out = optarg;
			break;
		case OPT_SELFTEST_VERBOSITY:
			if (parse_uint(optarg, "verbosity", 10, &v) < 0)
				return 2;
			verbosity = (int)v;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}

	if (selftest || selftest_out != NULL) {
		/* Quiet by default: the self-test output is meant for logs. */
		log_init(argv[0], verbosity >= 2 ? LOG_DEBUG :
				  verbosity == 1 ? LOG_INFO : LOG_WARN);
		return selftest_run(argv[0], selftest_out, verbosity);
	}

	if (optind != argc - 1) {
		usage(stderr, argv[0]);
		return 2;
	}
	log_init(argv[0], verbosity >= 2 ? LOG_DEBUG :
			  verbosity == 1 || !quiet ? LOG_INFO : LOG_WARN);

	p.url_str = argv[optind];
	if (url_parse(p.url_str, &p.url, &why) < 0) {
		log_error("%s: %s", p.url_str, why);
		return 2;
	}
	if (output == NULL) {
		output = owned_output = default_output(&p.url);
		if (output == NULL) {
			log_errno(errno, "out of memory");
			return 2;
		}
	}
	if (state == NULL) {
		size_t len = strlen(output) + sizeof(".cgstate");

		state = owned_state = malloc(len);
		if (state == NULL) {
			log_errno(errno, "out of memory");
			free(owned_output);
			return 2;
		}
		snprintf(owned_state, len, "%s.cgstate", output);
	}
	p.output = output;
	p.state_path = state;
	p.progress_bar = !quiet && isatty(STDERR_FILENO);

	r = download_run(&p);

	free(owned_state); // FALSE-ALARM: signals_stop joins the signal thread unless pthread_kill fails, and pthread_kill fails only for a thread that has ended; locksmith keeps the thread alive on that branch
	free(owned_output);
	return r == DL_OK ? 0 : r == DL_INCOMPLETE ? 1 : 2;
}
