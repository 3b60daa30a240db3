/*
 * progress.c - the progress meter thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "download.h"
#include "log.h"
#include "progress.h"

#define BAR_WIDTH	30
#define PLAIN_PERIOD	10.0	/* seconds between plain status lines */

struct progress {
	pthread_mutex_t lock;	/* protects stop */
	pthread_cond_t wake;
	int stop;
	unsigned interval_ms;
	int render;
	pthread_t tid;
};

struct sample {
	long long have;		/* bytes on disk, summed over chunks */
	int done;		/* chunks finished */
	int failed;		/* chunks given up */
	int aborting;		/* download_failed was seen */
	unsigned long long wire;	/* bytes received including headers */
};

static void take_sample(struct sample *s)
{
	pthread_mutex_lock(&bwritten_lock);
	s->done = chunks_done;				// NORACE
	s->failed = chunks_failed;			// NORACE
	pthread_mutex_unlock(&bwritten_lock);

	/* Cheap, lock-free estimates: the meter is only informational. */
	s->wire = http_stats_bytes_in();
	s->aborting = download_failed;			// RACE(failed)
	s->have = 0;
	for (int i = 0; i < nchunks; i++) {
		long long off = chunks[i].offset;	// RACE(chunkpos)

		s->have += off - chunks[i].start;
	}
}

static void format_rate(char *buf, size_t cap, double bytes_per_sec)
{
	if (bytes_per_sec >= 1048576.0)
		snprintf(buf, cap, "%.1f MiB/s", bytes_per_sec / 1048576.0);
	else
		snprintf(buf, cap, "%.1f KiB/s", bytes_per_sec / 1024.0);
}

static void draw(const struct progress *pg, const struct sample *s,
		 double rate, double now, double *last_plain)
{
	char line[160], ratebuf[32], bar[BAR_WIDTH + 1];
	int pct, filled;

	pct = total_size > 0 ? (int)(s->have * 100 / total_size) : 100;
	format_rate(ratebuf, sizeof(ratebuf), rate);

	if (pg->render) {
		filled = pct * BAR_WIDTH / 100;
		memset(bar, '#', (size_t)filled);
		memset(bar + filled, '.', (size_t)(BAR_WIDTH - filled));
		bar[BAR_WIDTH] = '\0';
		snprintf(line, sizeof(line), "[%s] %3d%% %d/%d chunks %s%s",
			 bar, pct, s->done, nchunks, ratebuf,
			 s->aborting ? "  FAILING" : "");
		log_progress(line);
	} else if (now - *last_plain >= PLAIN_PERIOD) {
		log_info("%d%% (%lld of %lld bytes), %d/%d chunks done, %s%s",
			 pct, s->have, total_size, s->done, nchunks, ratebuf,
			 s->failed > 0 ? ", failing" : "");
		*last_plain = now;
	}
}

static void *progress_main(void *arg)
{
	struct progress *pg = arg;
	struct sample s;
	struct timespec deadline;
	unsigned long long last_wire = 0;
	double last_t, now, rate = 0, last_plain;

	last_t = last_plain = log_elapsed();
	pthread_mutex_lock(&pg->lock);
	while (!pg->stop) {				// NORACE
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += (long)(pg->interval_ms % 1000) * 1000000L;
		deadline.tv_sec += pg->interval_ms / 1000 +
				   deadline.tv_nsec / 1000000000L;
		deadline.tv_nsec %= 1000000000L;
		while (!pg->stop &&				// NORACE
		       pthread_cond_timedwait(&pg->wake, &pg->lock,
					      &deadline) != ETIMEDOUT)
			;
		if (pg->stop)					// NORACE
			break;
		pthread_mutex_unlock(&pg->lock);

		take_sample(&s);
		now = log_elapsed();
		if (now > last_t) {
			/* exponentially smoothed transfer rate */
			double inst = (double)(s.wire - last_wire) / (now - last_t);

			rate = rate == 0 ? inst : 0.7 * rate + 0.3 * inst;
		}
		last_wire = s.wire;
		last_t = now;
		draw(pg, &s, rate, now, &last_plain);

		pthread_mutex_lock(&pg->lock);
	}
	pthread_mutex_unlock(&pg->lock);

	if (pg->render)
		log_progress_done();
	return NULL;
}

struct progress *progress_start(unsigned interval_ms, int render)
{
	struct progress *pg;
	int err;

	pg = calloc(1, sizeof(*pg));
	if (pg == NULL) {
		log_errno(errno, "allocating progress meter");
		return NULL;
	}
	pthread_mutex_init(&pg->lock, NULL);
	pthread_cond_init(&pg->wake, NULL);
	pg->interval_ms = interval_ms > 0 ? interval_ms : 1000;
	pg->render = render;

	err = pthread_create(&pg->tid, NULL, progress_main, pg);
	if (err != 0) {
		log_errno(err, "cannot start the progress meter");
		pthread_cond_destroy(&pg->wake);
		pthread_mutex_destroy(&pg->lock);
		free(pg);
		return NULL;
	}
	return pg;
}

void progress_stop(struct progress *pg)
{
	if (pg == NULL)
		return;
	pthread_mutex_lock(&pg->lock);
	pg->stop = 1;					// NORACE
	pthread_cond_signal(&pg->wake);
	pthread_mutex_unlock(&pg->lock);
	pthread_join(pg->tid, NULL);

	pthread_cond_destroy(&pg->wake);
	pthread_mutex_destroy(&pg->lock);
	free(pg);
}

