/* A handler for SIGUSR1 updates `queued`; main blocks SIGUSR1 around its own updates (directly,
 * and through a helper that returns with the signal blocked). While main is the program's only
 * thread, a blocked signal stays pending until main unblocks it (POSIX XSH 2.4.1): the handler
 * cannot run during those updates (NORACE on both). Once the worker runs, the worker can take
 * the signal, so the handler runs on it at the same time as main's update, blocked or not
 * (RACE on both), and once main unblocks it the handler may interrupt main's read (RACE). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#define ITER 2000

static long queued;

static void on_usr1(int sig)
{
    (void)sig;
    queued++; // RACE: main's update while the worker takes the signal
}

static void block_usr1(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, old);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        kill(getpid(), SIGUSR1);
    return NULL;
}

int main(void)
{
    sigset_t s, old;
    pthread_t t;
    signal(SIGUSR1, on_usr1);
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, &old);
    queued = 0; // NORACE: SIGUSR1 blocked and main alone
    sigprocmask(SIG_SETMASK, &old, NULL);
    raise(SIGUSR1);
    block_usr1(&old);
    queued += 10; // NORACE: blocked by the helper, main still alone
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    pthread_create(&t, NULL, worker, NULL);
    block_usr1(NULL);
    for (int i = 0; i < ITER; i++) {
        queued++; // RACE: the handler may run on the worker meanwhile
        usleep(10);
    }
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    pthread_join(t, NULL);
    printf("%ld\n", queued); // RACE: the handler may interrupt main here (SIGUSR1 unblocked)
    return 0;
}
