/*
 * signals.h - the signal-waiter thread.
 *
 * chunkget blocks SIGINT, SIGTERM, SIGALRM and SIGUSR1 in every thread
 * and handles them synchronously in one dedicated thread, which also
 * saves the resume state periodically.
 */
#ifndef CHUNKGET_SIGNALS_H
#define CHUNKGET_SIGNALS_H

/* Exit status after SIGINT/SIGTERM (state saved). */
#define EXIT_INTERRUPTED 130

/*
 * Block the signals in the calling thread (and so in every thread it
 * creates afterwards) and start the waiter.  Must be called before any
 * other thread is created.  checkpoint_ms == 0 disables periodic saves.
 */
int signals_start(const char *state_path, unsigned checkpoint_ms);

/* Stop the waiter thread, wait for it and restore the signal mask. */
void signals_stop(void);

#endif /* CHUNKGET_SIGNALS_H */
