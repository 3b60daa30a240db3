/* Locks made lazily through a global pointer. `stats_gate` is created by
 * need_stats() the first time it is called (the pointer tested against NULL),
 * and never reset: however often need_stats() runs, it stands for one mutex,
 * so the counters' updates of `total` under it are NORACE. `batch_gate` is
 * reset to NULL and created again while the first batch's thread still runs:
 * the two batches' threads hold two different mutexes, so `batch_total` is a
 * RACE (needs=linearity: counted as one lock, it would look protected), and
 * so are a thread's read of the pointer and main's reset. (main's test and
 * creation race with that read too, but TSan, remembering the reset, does not
 * see them: they are left unannotated.) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct gate {
    pthread_mutex_t mu;
};

static struct gate *gate_new(void)
{
    struct gate *g = malloc(sizeof *g);
    pthread_mutex_init(&g->mu, NULL);
    return g;
}

static struct gate *stats_gate, *batch_gate;
static long total, batch_total;

static void need_stats(void)
{
    if (stats_gate == NULL)
        stats_gate = gate_new();
}

static void open_batch(void)
{
    if (batch_gate != NULL)
        return;
    batch_gate = gate_new();
}

static void *counter(void *arg)
{
    pthread_mutex_lock(&stats_gate->mu);
    total += (long)arg; // NORACE
    pthread_mutex_unlock(&stats_gate->mu);
    return NULL;
}

static void *batcher(void *arg)
{
    struct gate *g = batch_gate; // RACE
    pthread_mutex_lock(&g->mu);
    batch_total += (long)arg; // RACE needs=linearity
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

int main(void)
{
    pthread_t c[2], b[2];
    need_stats();
    need_stats();
    for (long i = 0; i < 2; i++)
        pthread_create(&c[i], NULL, counter, (void *)i);
    for (long i = 0; i < 2; i++) {
        open_batch();
        pthread_create(&b[i], NULL, batcher, (void *)i);
        usleep(20000);
        batch_gate = NULL; // RACE
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(c[i], NULL);
        pthread_join(b[i], NULL);
    }
    printf("%ld %ld\n", total, batch_total);
    return 0;
}
