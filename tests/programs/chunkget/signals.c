/*
 * signals.c - the signal-waiter thread.
 *
 * As in aget, signals are not handled asynchronously: the waiter thread
 * sigwait()s for them and calls the handler functions in thread context.
 * The waiter doubles as the checkpoint timer: when no signal arrives
 * within the checkpoint period it saves the resume state.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "resume.h"
#include "signals.h"

#define SIG_SHUTDOWN SIGUSR1	/* sent by signals_stop() */

static pthread_t waiter_tid;
static int waiter_running;
static const char *state_file;
static unsigned period_ms;
static sigset_t waited;
static sigset_t saved_mask;

/* SIGALRM, or the checkpoint period expired: save the resume state. */
static void sigalrm_handler(int sig)
{
	if (resume_save(state_file) == 0) {
		if (sig != 0)
			log_info("progress saved to %s", state_file);
	}
}

/* SIGINT/SIGTERM: save the resume state and leave. */
static void sigint_handler(int sig)
{
	int saved = resume_save(state_file) == 0;

	log_progress_done();
	log_error("interrupted by %s%s%s", sig == SIGINT ? "SIGINT" : "SIGTERM",
		  saved ? "; resume with -r, state in " : "",
		  saved ? state_file : "");
	/*
	 * Data already pwrite()n is in the page cache and the state file is
	 * complete, so there is nothing left to flush.
	 */
	_exit(EXIT_INTERRUPTED);
}

static int wait_signal(void)
{
	struct timespec ts;

	if (period_ms == 0)
		return sigwaitinfo(&waited, NULL);
	ts.tv_sec = period_ms / 1000;
	ts.tv_nsec = (long)(period_ms % 1000) * 1000000L;
	return sigtimedwait(&waited, NULL, &ts);
}

static void *signal_waiter(void *arg)
{
	int sig;

	(void)arg;
	for (;;) {
		sig = wait_signal();
		if (sig < 0) {
			if (errno == EAGAIN) {		/* period elapsed */
				sigalrm_handler(0);
				continue;
			}
			if (errno == EINTR)
				continue;
			log_errno(errno, "waiting for signals");
			return NULL;
		}
		switch (sig) {
		case SIGALRM:
			sigalrm_handler(sig);
			break;
		case SIGINT:
		case SIGTERM:
			sigint_handler(sig);
			break;
		case SIG_SHUTDOWN:
			return NULL;
		default:
			log_warn("ignoring unexpected signal %d", sig);
			break;
		}
	}
}

int signals_start(const char *state_path, unsigned checkpoint_ms)
{
	sigset_t blocked;
	int err;

	state_file = state_path;
	period_ms = checkpoint_ms;

	sigemptyset(&waited);
	sigaddset(&waited, SIGINT);
	sigaddset(&waited, SIGTERM);
	sigaddset(&waited, SIGALRM);
	sigaddset(&waited, SIG_SHUTDOWN);

	/* SIGPIPE is blocked too: a dead peer shows up as EPIPE instead. */
	blocked = waited;
	sigaddset(&blocked, SIGPIPE);
	err = pthread_sigmask(SIG_BLOCK, &blocked, &saved_mask);
	if (err != 0) {
		log_errno(err, "pthread_sigmask");
		return -1;
	}
	err = pthread_create(&waiter_tid, NULL, signal_waiter, NULL);
	if (err != 0) {
		log_errno(err, "cannot start the signal thread");
		pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
		return -1;
	}
	waiter_running = 1;
	return 0;
}

void signals_stop(void)
{
	int err;

	if (!waiter_running)
		return;
	err = pthread_kill(waiter_tid, SIG_SHUTDOWN);
	if (err != 0)
		log_errno(err, "cannot stop the signal thread");
	else
		pthread_join(waiter_tid, NULL);
	waiter_running = 0;

	/*
	 * Back to the caller's signal mask, so that a later exec() or
	 * child process does not inherit blocked SIGINT/SIGTERM.
	 */
	pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
}
