/*
 * log.c - serialized diagnostics for chunkget.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"

static const char *log_progname = "chunkget";
static enum log_level log_threshold = LOG_INFO;
static struct timespec log_t0;

/* log_lock protects stderr, progress_shown and log_counts. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int progress_shown;		/* a progress line is on the screen */
static unsigned long log_counts[LOG_NLEVELS];

static const char *const level_names[LOG_NLEVELS] = {
	"error", "warning", "info", "debug"
};

void log_init(const char *progname, enum log_level level)
{
	const char *slash;

	if (progname != NULL) {
		slash = strrchr(progname, '/');
		log_progname = slash != NULL ? slash + 1 : progname;
	}
	log_threshold = level;
	clock_gettime(CLOCK_MONOTONIC, &log_t0);
}

double log_elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - log_t0.tv_sec) +
	       (double)(now.tv_nsec - log_t0.tv_nsec) / 1e9;
}

/* Called with log_lock held. */
static void clear_progress_locked(void)
{
	if (progress_shown) {		// NORACE
		fputc('\n', stderr);
		progress_shown = 0;	// NORACE
	}
}

static void vlog_locked(enum log_level level, int err, const char *fmt,
			va_list ap)
{
	log_counts[level]++;		// NORACE
	if (level > log_threshold)
		return;

	clear_progress_locked();
	fprintf(stderr, "%s: [%8.3f] %s: ", log_progname, log_elapsed(),
		level_names[level]);
	vfprintf(stderr, fmt, ap);
	if (err != 0)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	if (level < LOG_ERROR || level >= LOG_NLEVELS)
		level = LOG_ERROR;
	va_start(ap, fmt);
	pthread_mutex_lock(&log_lock);
	vlog_locked(level, 0, fmt, ap);
	pthread_mutex_unlock(&log_lock);
	va_end(ap);
}

void log_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&log_lock);
	/* strerror() is not thread-safe; log_lock serializes it. */
	vlog_locked(LOG_ERROR, err, fmt, ap);
	pthread_mutex_unlock(&log_lock);
	va_end(ap);
}

void log_progress(const char *line)
{
	pthread_mutex_lock(&log_lock);
	fprintf(stderr, "\r%s", line);
	progress_shown = 1;		// NORACE
	pthread_mutex_unlock(&log_lock);
}

void log_progress_done(void)
{
	pthread_mutex_lock(&log_lock);
	clear_progress_locked();
	pthread_mutex_unlock(&log_lock);
}

unsigned long log_count(enum log_level level)
{
	unsigned long n;

	if (level < LOG_ERROR || level >= LOG_NLEVELS)
		return 0;
	pthread_mutex_lock(&log_lock);
	n = log_counts[level];		// NORACE
	pthread_mutex_unlock(&log_lock);
	return n;
}
