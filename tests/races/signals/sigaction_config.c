/* A handler installed with sigaction(). `limit` is written by main before
 * the handler is installed and before any thread exists, and afterwards only
 * read (by the handler): NORACE. The handler increments `events`, which
 * main reads while the worker keeps raising SIGUSR2 (the handler runs on the
 * worker thread): RACE on both. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define ITER 300

int limit;
long events;

static void on_usr2(int sig)
{
    int step = limit; // NORACE needs=sharing: limit written only before install
    (void)sig;
    events += step > 0 ? 1 : 2; // RACE: main reads events concurrently
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        raise(SIGUSR2);
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    pthread_t t;
    limit = ITER / 2; // NORACE needs=sharing: before the handler and the threads exist
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr2;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    pthread_create(&t, NULL, worker, NULL);
    long seen = events; // RACE: the handler writes events
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
