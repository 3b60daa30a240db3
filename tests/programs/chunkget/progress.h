/*
 * progress.h - the progress meter thread.
 */
#ifndef CHUNKGET_PROGRESS_H
#define CHUNKGET_PROGRESS_H

struct progress;

/*
 * Start the meter, sampling every interval_ms.  With render set it draws
 * a bar on stderr, otherwise it logs a status line every ten seconds.
 * Returns NULL (after logging) if the thread cannot be started; the
 * download then simply runs without a meter.
 */
struct progress *progress_start(unsigned interval_ms, int render);

/* Stop the meter, wait for it and free it.  Accepts NULL. */
void progress_stop(struct progress *pg);

#endif /* CHUNKGET_PROGRESS_H */
