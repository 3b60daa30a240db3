/* Turns broken: two takers, started by one loop, each waits once for `turn` to be 1.
 * When main stores 1 both may see it before either stores 0 back, so two
 * threads are in a turn of the same value at once: the takers' updates of
 * `sum` are a RACE, and `batch`, written in main's turns, is then read while
 * the other taker may still be in its turn: RACE with main's write. Compare
 * turn_pingpong.c, where one thread takes each value. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn; /* 0: main's turn, 1: a taker's */
static long batch, sum;

static void *taker(void *arg)
{
    pthread_mutex_lock(&m);
    while (turn != 1)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    sum += batch; // RACE: the other taker may be in a turn of 1 too
    usleep(2000);
    pthread_mutex_lock(&m);
    turn = 0;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, taker, NULL);
    usleep(5000); /* both takers wait before the first turn is handed over */
    for (long k = 1; k <= 2; k++) {
        pthread_mutex_lock(&m);
        while (turn != 0)
            pthread_cond_wait(&changed, &m);
        pthread_mutex_unlock(&m);
        batch = k; // RACE: a taker may still be in its turn
        pthread_mutex_lock(&m);
        turn = 1;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&m);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld\n", sum);
    return 0;
}
