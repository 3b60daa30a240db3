/* A handler that only sets a `volatile sig_atomic_t` flag, polled by main.
 * The flag makes the handler safe against the thread it interrupts (C11
 * 7.14.1.1 p5), but main polls it while the worker runs, and a signal sent to
 * the process may be taken by the worker: the handler then writes the flag on
 * the worker's thread while main reads it, a race between two threads
 * (RACE on the handler's write and on main's reads; see
 * sig_atomic_main_alone.c for the polls that do not race). ThreadSanitizer
 * cannot observe this race here: main raises the signal itself, so the
 * handler runs on the main thread. `rounds` is only touched by main and the
 * worker under `m`: NORACE. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
volatile sig_atomic_t stop;
long rounds;

static void on_int(int sig)
{
    (void)sig;
    stop = 1; // RACE: main polls stop
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        rounds++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    signal(SIGINT, on_int);
    pthread_create(&t, NULL, worker, NULL);
    for (int i = 0; !stop; i++) { // RACE: the handler writes stop
        pthread_mutex_lock(&m);
        rounds += 2; // NORACE: m held
        pthread_mutex_unlock(&m);
        if (i == 100)
            raise(SIGINT);
    }
    pthread_join(t, NULL);
    puts("stopped");
    return 0;
}
