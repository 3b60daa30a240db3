/*
 * download.h - the parallel chunk downloader and the state it shares.
 */
#ifndef CHUNKGET_DOWNLOAD_H
#define CHUNKGET_DOWNLOAD_H

#include <pthread.h>

#include "http.h"

#define MAX_CHUNKS 64

/* One byte range of the file, owned by one downloader thread. */
struct chunk {
	int index;
	long long start;	/* first byte of the range */
	long long end;		/* one past the last byte */
	long long offset;	/* next byte to fetch; advanced by the owner */
};

struct dl_params {
	const char *url_str;	/* as given on the command line */
	struct url url;
	const char *output;	/* local file name */
	const char *state_path;	/* resume state file */
	int nthreads;		/* requested number of connections */
	int retries;		/* attempts per chunk without progress */
	int retry_delay_ms;	/* back-off unit between attempts */
	int timeout_sec;	/* socket timeout, 0 = none */
	int resume;		/* continue from state_path */
	unsigned checkpoint_ms;	/* period of resume-state saves, 0 = never */
	unsigned progress_ms;	/* progress meter period */
	int progress_bar;	/* draw a progress bar on stderr */
};

enum dl_result {
	DL_OK = 0,		/* file complete */
	DL_INCOMPLETE = 1,	/* some chunk failed; state saved for -r */
	DL_ERROR = 2		/* nothing useful happened */
};

/*
 * Shared download state.  Everything but bytes_written, download_failed,
 * chunks_done, chunks_failed and chunk.offset is set up by download_run()
 * before the first thread is created and only read afterwards.
 */
extern const struct dl_params *dl;
extern struct endpoint dl_server;
extern long long total_size;
extern struct chunk *chunks;
extern int nchunks;
extern int out_fd;

extern pthread_mutex_t bwritten_lock;	/* protects the next three */
extern long long bytes_written;
extern int chunks_done;
extern int chunks_failed;

extern int download_failed;		/* set when a chunk gives up */

enum dl_result download_run(const struct dl_params *p);

#endif /* CHUNKGET_DOWNLOAD_H */
