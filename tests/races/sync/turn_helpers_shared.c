/* Turns through helpers, broken: two workers, each started once, both call
 * wait_turn(1), once. When main passes the turn to 1, both may be in it at once:
 * their updates of `sum` are a RACE, and the read of `data` races with
 * main's next write, made while the other worker may still be in its turn.
 * Compare turn_helpers.c, where one thread takes each value. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn;
static long data, sum;

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
    wait_turn(1);
    sum += data; // RACE: the other worker may be in a turn of 1 too
    usleep(2000);
    pass_turn(0);
    return arg;
}

int main(void)
{
    pthread_t t, u;
    pthread_create(&t, NULL, worker, NULL);
    pthread_create(&u, NULL, worker, NULL);
    usleep(5000); /* both workers wait before the first turn is passed */
    for (long k = 1; k <= 2; k++) {
        wait_turn(0);
        data = k; // RACE: a worker may still be in its turn
        pass_turn(1);
    }
    pthread_join(t, NULL);
    pthread_join(u, NULL);
    printf("%ld\n", sum);
    return 0;
}
