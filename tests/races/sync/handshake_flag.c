/* Hand-shakes through flags under a mutex: the producer sets `started` when it begins and
 * `ready` once it has filled `table`, each holding `m`; nothing else stores anything but 0 in
 * them. The consumer waits, holding `m`, until it sees `ready`: the table was filled before
 * that, so the reads of `sum_table`, which only the consumer calls after its wait, are ordered
 * after the producer's writes (NORACE; both were reported before). The monitor only waits for `started`, set before the table is filled: its read
 * races with the producer's writes (RACE). What the producer does after its signal is ordered
 * with nothing (`late`: RACE). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int started, ready;
static long table[64];
static long late;

static void *producer(void *arg)
{
    pthread_mutex_lock(&m);
    started = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
    usleep(20000); /* the monitor reads before the table is filled */
    for (int i = 0; i < 64; i++)
        table[i] = i * 2; // RACE: the monitor reads after `started` only
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
    late++; // RACE: after the signal
    return arg;
}

static long sum_table(void)
{
    long sum = 0;
    for (int i = 0; i < 64; i++)
        sum += table[i]; // NORACE needs=sharing: called only after `ready`, set once filled
    return sum;
}

static void *consumer(void *arg)
{
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    late++; // RACE: the producer goes on after its signal
    printf("%ld\n", sum_table());
    return arg;
}

static void *monitor(void *arg)
{
    pthread_mutex_lock(&m);
    while (started == 0)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    printf("%ld\n", table[63]); // RACE: `started` comes before the table is filled
    return arg;
}

int main(void)
{
    pthread_t p, c, w;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&w, NULL, monitor, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_join(w, NULL);
    return 0;
}
