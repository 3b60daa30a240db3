/* Two workers each block SIGUSR1 around their update of `served`: a blocked signal keeps the
 * handler from interrupting the thread that blocks it, but orders nothing between two threads,
 * which run at the same time whatever their masks (RACE on both). `got` is the handler's own,
 * read by main after the workers are joined and the signal is blocked (NORACE). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#define ITER 2000

static long served;
static volatile long got;

static void on_usr1(int sig)
{
    (void)sig;
    got = got + 1;
}

static void *worker(void *arg)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    for (int i = 0; i < ITER; i++) {
        pthread_sigmask(SIG_BLOCK, &s, NULL);
        served++; // RACE: the other worker blocks the signal too, at the same time
        pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    sigset_t s;
    signal(SIGUSR1, on_usr1);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, NULL);
    printf("%ld %ld\n", served, got); // NORACE: workers joined, SIGUSR1 blocked, main alone
    return 0;
}
