/*
 * resume.h - the resume state file.
 *
 * The state file records the chunk layout and how far each chunk got, so
 * that an interrupted or failed download can be continued with -r.
 */
#ifndef CHUNKGET_RESUME_H
#define CHUNKGET_RESUME_H

#include "download.h"

#define STATE_MAGIC "chunkget-state 1"

struct resume_info {
	char url[URL_HOST_MAX + URL_PATH_MAX + 32];
	long long size;
	long long written;
	int nchunks;
	struct {
		long long start;
		long long end;
		long long offset;
	} chunk[MAX_CHUNKS];
};

/* Read a state file.  Returns 0, or -1 after logging the problem. */
int resume_parse(const char *path, struct resume_info *ri);

/*
 * Apply the state file to the freshly laid-out chunk table.  Called by
 * download_run() before any downloader is started.
 */
int resume_load(const char *path);

/*
 * Atomically (write + rename) save the current progress.  Called from
 * the checkpoint thread while downloads run, and from download_run()
 * at the end.
 */
int resume_save(const char *path);

/* Number of successful resume_save() calls. */
unsigned long resume_saves(void);

#endif /* CHUNKGET_RESUME_H */
