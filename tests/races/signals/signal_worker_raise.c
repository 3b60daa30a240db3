/* A handler installed with signal() writes a global that main also writes.
 * locksmith treats the handler as a thread of its own from the moment it is
 * installed. The worker raises SIGUSR1 repeatedly, so the handler runs on
 * the worker thread while main updates `hits`: RACE on the handler's write
 * and on main's. `work` is updated by the worker and by main holding `m`
 * (the handler never touches it): NORACE. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#define ITER 300

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long hits;
long work;

static void on_usr1(int sig)
{
    (void)sig;
    hits++; // RACE: main writes hits without any lock
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        raise(SIGUSR1);
        pthread_mutex_lock(&m);
        work++; // NORACE: m held, handler does not touch work
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    signal(SIGUSR1, on_usr1);
    pthread_create(&t, NULL, worker, NULL);
    hits += 1000; // RACE: the handler writes hits
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        work--; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, NULL);
    puts("done");
    return 0;
}
