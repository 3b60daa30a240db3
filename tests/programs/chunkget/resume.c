/*
 * resume.c - reading and writing the resume state file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "resume.h"

/* Serializes writers of the state file; protects saves_done. */
static pthread_mutex_t save_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long saves_done;

static int parse_line(const char *line, struct resume_info *ri, int *seen)
{
	long long start, end, offset;
	int idx;

	if (strncmp(line, "url ", 4) == 0) {
		size_t n = strlen(line + 4);

		if (n >= sizeof(ri->url))
			return -1;
		memcpy(ri->url, line + 4, n + 1);
		return 0;
	}
	if (sscanf(line, "size %lld", &ri->size) == 1)
		return ri->size >= 0 ? 0 : -1;
	if (sscanf(line, "written %lld", &ri->written) == 1)
		return 0;
	if (sscanf(line, "chunks %d", &ri->nchunks) == 1)
		return ri->nchunks >= 1 && ri->nchunks <= MAX_CHUNKS ? 0 : -1;
	if (sscanf(line, "chunk %d %lld %lld %lld", &idx, &start, &end,
		   &offset) == 4) {
		if (idx < 0 || idx >= ri->nchunks || start > end ||
		    offset < start || offset > end)
			return -1;
		ri->chunk[idx].start = start;
		ri->chunk[idx].end = end;
		ri->chunk[idx].offset = offset;
		(*seen)++;
		return 0;
	}
	return -1;
}

int resume_parse(const char *path, struct resume_info *ri)
{
	char line[URL_HOST_MAX + URL_PATH_MAX + 64];
	int lineno = 0, seen = 0;
	size_t len;
	FILE *fp;

	memset(ri, 0, sizeof(*ri));
	fp = fopen(path, "r");
	if (fp == NULL) {
		log_errno(errno, "cannot open state file %s", path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		lineno++;
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (lineno == 1) {
			if (strcmp(line, STATE_MAGIC) != 0) {
				log_error("%s is not a chunkget state file", path);
				goto bad;
			}
			continue;
		}
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (parse_line(line, ri, &seen) < 0) {
			log_error("%s:%d: malformed line", path, lineno);
			goto bad;
		}
	}
	if (ferror(fp)) {
		log_errno(errno, "reading %s", path);
		goto bad;
	}
	fclose(fp);
	if (ri->nchunks == 0 || seen != ri->nchunks) {
		log_error("%s: expected %d chunk lines, found %d", path,
			  ri->nchunks, seen);
		return -1;
	}
	return 0;

bad:
	fclose(fp);
	return -1;
}

int resume_load(const char *path)
{
	struct resume_info *ri;
	long long have = 0;
	int rc = -1;

	ri = malloc(sizeof(*ri));
	if (ri == NULL) {
		log_errno(errno, "allocating resume state");
		return -1;
	}
	if (resume_parse(path, ri) < 0)
		goto out;

	if (ri->size != total_size) {
		log_error("%s describes a %lld byte file, the server has %lld bytes",
			  path, ri->size, total_size);
		goto out;
	}
	if (ri->nchunks != nchunks) {
		log_error("%s was written with %d connections; use -n %d",
			  path, ri->nchunks, ri->nchunks);
		goto out;
	}
	if (strcmp(ri->url, dl->url_str) != 0)
		log_warn("resuming %s from a different URL (was %s)",
			 dl->url_str, ri->url);

	for (int i = 0; i < nchunks; i++) {
		if (ri->chunk[i].start != chunks[i].start ||
		    ri->chunk[i].end != chunks[i].end) {
			log_error("%s: chunk %d layout differs", path, i);
			goto out;
		}
	}
	for (int i = 0; i < nchunks; i++) {
		chunks[i].offset = ri->chunk[i].offset;
		have += chunks[i].offset - chunks[i].start;
	}
	log_info("resuming: %lld of %lld bytes already present", have,
		 total_size);
	rc = 0;
out:
	free(ri);
	return rc;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Format the state into buf; returns the length or -1 if it does not fit. */
static int format_state(char *buf, size_t cap)
{
	long long written, offset;
	size_t len;
	int n;

	written = bytes_written;			// RACE(bwritten)
	n = snprintf(buf, cap, STATE_MAGIC "\nurl %s\nsize %lld\nwritten %lld\n"
		     "chunks %d\n", dl->url_str, total_size, written, nchunks);
	if (n < 0 || (size_t)n >= cap)
		return -1;
	len = (size_t)n;

	for (int i = 0; i < nchunks; i++) {
		offset = chunks[i].offset;		// RACE(chunkpos)
		n = snprintf(buf + len, cap - len, "chunk %d %lld %lld %lld\n",
			     i, chunks[i].start, chunks[i].end, offset);
		if (n < 0 || (size_t)n >= cap - len)
			return -1;
		len += (size_t)n;
	}
	return (int)len;
}

int resume_save(const char *path)
{
	char buf[256 + URL_HOST_MAX + URL_PATH_MAX + MAX_CHUNKS * 80];
	char tmp[URL_PATH_MAX + 16];
	int fd, len, rc = -1;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		log_error("state file name %s is too long", path);
		return -1;
	}

	pthread_mutex_lock(&save_lock);
	len = format_state(buf, sizeof(buf));
	if (len < 0) {
		log_error("resume state does not fit in %zu bytes", sizeof(buf));
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		log_errno(errno, "cannot create %s", tmp);
		goto out;
	}
	if (write_all(fd, buf, (size_t)len) < 0) {
		log_errno(errno, "writing %s", tmp);
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		log_errno(errno, "saving %s", path);
		unlink(tmp);
		goto out;
	}
	saves_done++;					// NORACE
	rc = 0;
out:
	pthread_mutex_unlock(&save_lock);
	return rc;
}

unsigned long resume_saves(void)
{
	unsigned long n;

	pthread_mutex_lock(&save_lock);
	n = saves_done;					// NORACE
	pthread_mutex_unlock(&save_lock);
	return n;
}
