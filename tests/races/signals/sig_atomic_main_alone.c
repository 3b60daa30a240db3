/* A handler sets `volatile sig_atomic_t` flags, the one kind of object C
 * lets a handler write and the code it interrupts read (C11 7.14.1.1 p5).
 * While main is the program's only thread, the handler can only run by
 * interrupting it: main's polls of `got_usr1` before it starts the worker do
 * not race with the handler's write (NORACE on both). `ticks` is read by main
 * while the worker runs, and the worker takes SIGUSR1 itself, so the handler
 * runs on the worker's thread at the same time as main's read: a race between
 * two threads, which `sig_atomic_t` does not make safe (RACE on both). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1;
static volatile sig_atomic_t ticks;

static void on_usr1(int sig)
{
    (void)sig;
    got_usr1 = 1; // NORACE: main polls it only while it is the only thread
    ticks = ticks + 1; // RACE: main reads ticks while the worker takes the signal
}

static void *worker(void *arg)
{
    (void)arg;
    raise(SIGUSR1);
    return NULL;
}

int main(void)
{
    pthread_t t;
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    while (!got_usr1) // NORACE: only main and the handler run here
        ;
    pthread_create(&t, NULL, worker, NULL);
    usleep(1000);
    int seen = ticks; // RACE: the handler may run on the worker now
    pthread_join(t, NULL);
    printf("%d\n", seen);
    return 0;
}
