/* A parent that orders its own child, started twice by one call of main:
 * `start_both` calls `start_one` twice, and each starts a parent with the
 * same pthread_create, neither joined before the other starts. The first
 * parent's child reads `config` while the second parent (which starts
 * later) writes it: RACE on both lines, although each parent writes
 * `config` only before starting its own child. */
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

static pthread_t start_one(long delay)
{
    pthread_t t;
    pthread_create(&t, NULL, parent, (void *)delay);
    return t;
}

static void start_both(pthread_t *ids)
{
    ids[0] = start_one(0);
    ids[1] = start_one(3000);
}

int main(void)
{
    pthread_t ids[2];
    start_both(ids);
    pthread_join(ids[0], NULL);
    pthread_join(ids[1], NULL);
    return 0;
}
