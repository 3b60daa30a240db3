/* A handler that starts a thread, which sets a `volatile sig_atomic_t` flag
 * while main polls it. The flag makes a handler safe against the thread it
 * interrupts, not a thread against another: the thread's write and main's
 * polls race (RACE on both), though main is otherwise the only thread. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t done;

static void *finish(void *arg)
{
    done = 1; // RACE: main polls done meanwhile
    return arg;
}

static void on_usr1(int sig)
{
    (void)sig;
    pthread_t t;
    pthread_create(&t, NULL, finish, NULL);
    pthread_detach(t);
}

int main(void)
{
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    while (!done) // RACE: the thread the handler started writes done
        ;
    puts("done");
    return 0;
}
