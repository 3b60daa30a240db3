/* A handler that only sets a `volatile sig_atomic_t` flag, polled by main.
 * This is the sanctioned C idiom, but by the definition locksmith checks
 * (the handler is a thread of its own from its installation; the flag is
 * written by it and read by main with no common lock) it is a race, and
 * locksmith reports it: RACE on the handler's write and on main's reads.
 * ThreadSanitizer cannot observe this race: main raises the signal itself,
 * so the handler runs on the main thread. `rounds` is only touched by main
 * and the worker under `m`: NORACE. */
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
