/* Turns and an observer: besides the loader, which waits for 1, a monitor waits
 * for `turn` to be anything but 1, which includes main's own 0. So the monitor
 * may look while main is in its turn: the monitor's read of `batch` is a RACE
 * with main's write. The monitor never stores `turn`, so it holds no turn, and
 * main's and the loader's turns still exclude each other: the loader's read is
 * NORACE. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn; /* 0: main's turn, 1: the loader's */
static long batch, sum, seen;

static void *loader(void *arg)
{
    for (int round = 0; round < 4; round++) {
        pthread_mutex_lock(&m);
        while (turn != 1)
            pthread_cond_wait(&changed, &m);
        pthread_mutex_unlock(&m);
        sum += batch; // NORACE
        pthread_mutex_lock(&m);
        turn = 0;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&m);
    }
    return arg;
}

static void *monitor(void *arg)
{
    pthread_mutex_lock(&m);
    while (turn == 1)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    seen = batch; // RACE: main may be in its turn of 0 too
    return arg;
}

int main(void)
{
    pthread_t t, u;
    pthread_create(&t, NULL, loader, NULL);
    pthread_create(&u, NULL, monitor, NULL);
    for (long k = 1; k <= 4; k++) {
        pthread_mutex_lock(&m);
        while (turn != 0)
            pthread_cond_wait(&changed, &m);
        pthread_mutex_unlock(&m);
        batch = k; // RACE: the monitor may be reading
        pthread_mutex_lock(&m);
        turn = 1;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, NULL);
    pthread_join(u, NULL);
    printf("%ld %ld\n", sum, seen);
    return 0;
}
