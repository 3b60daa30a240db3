/* One gate per batch of workers. start_batch() creates `gate`, and right
 * after it its companion `aside`, only while `gate` is NULL; end_batch(),
 * called once every worker of the batch is joined, frees both and resets
 * `gate`. No thread that uses them runs across a reset (the ticker, which
 * runs throughout, never does), and nothing but the two pointers ever holds
 * the gates, so each stands for one mutex at a time although start_batch()
 * runs once per batch: `sum` under `gate` and `seen` under `aside` are
 * NORACE. `hits`, updated with no lock at all, is a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct gate {
    pthread_mutex_t mu;
};

static struct gate *gate, *aside;
static long sum, seen, hits, ticks;

static struct gate *gate_new(void)
{
    struct gate *g = malloc(sizeof *g);
    pthread_mutex_init(&g->mu, NULL);
    return g;
}

static void gate_drop(struct gate *g) { pthread_mutex_destroy(&g->mu); free(g); }

static void *ticker(void *arg) { for (int i = 0; i < 1000; i++) ticks++; return arg; }

static void start_batch(void)
{
    if (gate != NULL)
        return;
    gate = gate_new();
    aside = gate_new();
}

static void end_batch(void)
{
    gate_drop(aside), gate_drop(gate);
    gate = NULL;
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&gate->mu);
    sum += (long)arg; // NORACE
    pthread_mutex_unlock(&gate->mu);
    pthread_mutex_lock(&aside->mu);
    seen++; // NORACE
    pthread_mutex_unlock(&aside->mu);
    hits++; // RACE
    return NULL;
}

static void run_batch(void)
{
    pthread_t t[3];
    start_batch();
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, (void *)(long)i);
    pthread_mutex_lock(&gate->mu);
    sum += 100; // NORACE
    pthread_mutex_unlock(&gate->mu);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    end_batch();
}

int main(void)
{
    pthread_t tick;
    pthread_create(&tick, NULL, ticker, NULL);
    for (int batch = 0; batch < 3; batch++)
        run_batch();
    pthread_join(tick, NULL);
    printf("%ld %ld %ld %ld\n", sum, seen, hits, ticks);
    return 0;
}
