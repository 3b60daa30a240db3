/* Sharing is per field. main fills `cfg` before the first fork; afterwards
 * the workers only read `cfg.rate` and `cfg.size`: NORACE (needs both the
 * sharing analysis and field sensitivity: with one location for the whole
 * struct, the post-fork write of `cfg.epoch` would make it shared and
 * written). main writes `cfg.epoch` again after the fork while the workers
 * read it: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct config {
    int rate;
    int size;
    int epoch;
};

struct config cfg;

static void *worker(void *arg)
{
    long acc = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        acc += cfg.rate; // NORACE needs=sharing,field: read-only after the fork
        acc += cfg.size; // NORACE needs=sharing,field: read-only after the fork
        acc ^= cfg.epoch; // RACE: main writes epoch after the fork
    }
    return (void *)acc;
}

int main(void)
{
    pthread_t a, b;
    cfg.rate = 3; // NORACE needs=sharing: before the first fork
    cfg.size = 64; // NORACE needs=sharing: before the first fork
    cfg.epoch = 0;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    cfg.epoch = 1; // RACE: the workers read epoch
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
