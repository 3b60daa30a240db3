/* Turns: main and one loader take turns through `turn`, a value under `m`. Each
 * waits, holding `m`, for the value that says it is its turn, then works with `m`
 * released, and hands the turn over by storing the other value, holding `m`. A
 * turn runs alone: `batch` and `stop`, written in main's turns and read in the
 * loader's, are NORACE, and so is the loader's `sum`, read by main in its turns.
 * `late` is written by main after it handed the turn over: RACE with the
 * loader's read in its turn. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn; /* 0: main's turn, 1: the loader's */
static int stop;
static long batch, sum, late;

static void hand_over(int to)
{
    pthread_mutex_lock(&m);
    turn = to;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
}

static void *loader(void *arg)
{
    for (;;) {
        pthread_mutex_lock(&m);
        while (turn != 1)
            pthread_cond_wait(&changed, &m);
        pthread_mutex_unlock(&m);
        if (stop) // NORACE
            break;
        sum += batch; // NORACE
        if (late > 2) // RACE: main writes it after handing the turn over
            sum++; // NORACE
        pthread_mutex_lock(&m);
        turn = 0;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&m);
    }
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, loader, NULL);
    for (long k = 1; k <= 4; k++) {
        pthread_mutex_lock(&m);
        while (turn != 0)
            pthread_cond_wait(&changed, &m);
        pthread_mutex_unlock(&m);
        printf("%ld\n", sum); // NORACE
        batch = k; // NORACE
        pthread_mutex_lock(&m);
        turn = 1;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&m);
        usleep(2000);
        late = k; // RACE: outside main's turn
    }
    pthread_mutex_lock(&m);
    while (turn != 0)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    stop = 1; // NORACE
    hand_over(1);
    pthread_join(t, NULL);
    return 0;
}
