/* Field sensitivity inside a heap object allocated once by main. The two
 * counters of one `struct stats` are guarded by different global locks:
 * `rx` by rx_m and `tx` by tx_m: NORACE needs=field. `errs` is bumped by
 * both threads with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 3000

struct stats {
    long rx;
    long tx;
    long errs;
};

pthread_mutex_t rx_m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t tx_m = PTHREAD_MUTEX_INITIALIZER;

static void *receiver(void *arg)
{
    struct stats *st = arg;
    st->errs++; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&rx_m);
        st->rx++; // NORACE needs=field: rx always under rx_m
        pthread_mutex_unlock(&rx_m);
    }
    return NULL;
}

static void *sender(void *arg)
{
    struct stats *st = arg;
    long seen = 0;
    st->errs++; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&tx_m);
        st->tx++; // NORACE needs=field: tx always under tx_m
        pthread_mutex_unlock(&tx_m);
        pthread_mutex_lock(&rx_m);
        seen += st->rx; // NORACE needs=field: rx always under rx_m
        pthread_mutex_unlock(&rx_m);
    }
    return (void *)seen;
}

int main(void)
{
    pthread_t r, s;
    struct stats *st = calloc(1, sizeof *st);
    pthread_create(&r, NULL, receiver, st);
    pthread_create(&s, NULL, sender, st);
    pthread_join(r, NULL);
    pthread_join(s, NULL);
    free(st);
    puts("done");
    return 0;
}
