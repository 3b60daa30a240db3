/* Turns taken through helpers: wait_turn(me) waits, holding `m`, until `turn`
 * is `me`, and returns in that turn; pass_turn(to) stores `to`, ending it.
 * main calls them with 0 and 1, the worker with 1 and 0, each value taken by
 * one thread: `data` and `sum`, used in the turns, are NORACE. `note`, which
 * the worker writes after passing the turn back, is a RACE with main's read. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn;
static long data, sum, note;

static void wait_turn(int me)
{
    pthread_mutex_lock(&m);
    while (turn != me)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
}

static void pass_turn(int to)
{
    pthread_mutex_lock(&m);
    turn = to;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
    for (int i = 0; i < 3; i++) {
        wait_turn(1);
        sum += data; // NORACE
        pass_turn(0);
        usleep(2000);
        note = i; // RACE: out of the worker's turn
    }
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    for (long k = 1; k <= 3; k++) {
        wait_turn(0);
        data = k; // NORACE
        printf("%ld\n", sum); // NORACE
        printf("%ld\n", note); // RACE: the worker may be writing it
        pass_turn(1);
    }
    wait_turn(0);
    pthread_join(t, NULL);
    return 0;
}
