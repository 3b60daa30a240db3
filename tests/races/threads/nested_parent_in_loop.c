/* A parent that orders its own child, started twice at once by one create
 * in a loop. Each parent writes `config` before it starts its child and the
 * child reads it; but the first parent's child runs while the second parent
 * (which starts later) writes `config`: RACE on both lines. Only the
 * accesses under one and the same parent are ordered by that parent. */
#include <pthread.h>
#include <unistd.h>

#define ITER 200000

long config;

static void *child(void *arg)
{
    long sum = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++)
        sum += config; // RACE: the other parent writes config while this child runs
    return (void *)sum;
}

static void *parent(void *arg)
{
    pthread_t c;
    usleep((useconds_t)(long)arg);
    for (int i = 0; i < 1000; i++)
        config = i; // RACE: the other parent's child reads config
    pthread_create(&c, NULL, child, NULL);
    pthread_join(c, NULL);
    return NULL;
}

int main(void)
{
    pthread_t p[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&p[i], NULL, parent, (void *)(i * 3000));
    for (int i = 0; i < 2; i++)
        pthread_join(p[i], NULL);
    return 0;
}
