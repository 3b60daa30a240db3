/* A handler and two workers. Each worker raises SIGUSR1 now and then, so the
 * handler runs on that worker's thread. The handler bumps `sig_count`, which
 * the workers also bump, with no lock anywhere: RACE on every access. The
 * workers' `jobs` counter is always updated under `m` and never touched by
 * the handler: NORACE. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#define ITER 400

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long sig_count;
long jobs;

static void on_usr1(int sig)
{
    (void)sig;
    sig_count++; // RACE: workers touch sig_count without a lock
}

static void *worker(void *arg)
{
    (void)arg;
    sig_count = 0; // RACE: the other worker and the handler
    for (int i = 0; i < ITER; i++) {
        if (i % 4 == 0)
            raise(SIGUSR1);
        pthread_mutex_lock(&m);
        jobs++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    signal(SIGUSR1, on_usr1);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", jobs); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
