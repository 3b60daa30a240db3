/* Variables that look like configuration but do change, so their branches are
 * kept. `tracing` is set through a pointer (its address is taken: any write
 * may go through it), `fast` is assigned a value other than its initializer,
 * and `level` is 0 at one call of `setup` and 2 at the other. Each branch runs
 * in both workers, whose unlocked updates race (RACE). */
#include <pthread.h>
#include <stdio.h>

static int tracing, fast, level;
static long traced, sped, counted;

static void enable(int *flag)
{
    *flag = 1;
}

static void setup(int l)
{
    level = l;
}

static void *worker(void *arg)
{
    if (tracing)
        traced++; // RACE
    if (fast)
        sped++; // RACE
    if (level == 2)
        counted++; // RACE
    return arg;
}

int main(void)
{
    pthread_t a, b;
    setup(0);
    enable(&tracing);
    fast = 1;
    setup(2);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld %ld\n", traced, sped, counted);
    return 0;
}
