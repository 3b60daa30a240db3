/* Two objects made by one allocation site (a constructor called twice),
 * each raced on by its own pair of threads: both races are reported, in the
 * warning for the allocation site. `a->count` is bumped by the two worker0
 * threads and `b->count` by the two worker1 threads, with no lock: RACE on
 * both lines. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct obj {
    unsigned count;
};

static struct obj *obj_new(void)
{
    struct obj *o = calloc(1, sizeof *o);
    if (o == NULL)
        abort();
    return o;
}

static void *worker0(void *arg)
{
    struct obj *o = arg;
    for (int i = 0; i < 1000; i++)
        o->count++; // RACE: the other worker0 thread bumps the same object
    return NULL;
}

static void *worker1(void *arg)
{
    struct obj *o = arg;
    for (int i = 0; i < 1000; i++)
        o->count++; // RACE: the other worker1 thread bumps the same object
    return NULL;
}

int main(void)
{
    struct obj *a = obj_new();
    struct obj *b = obj_new();
    pthread_t t[4];
    pthread_create(&t[0], NULL, worker0, a);
    pthread_create(&t[1], NULL, worker0, a);
    pthread_create(&t[2], NULL, worker1, b);
    pthread_create(&t[3], NULL, worker1, b);
    for (int k = 0; k < 4; k++)
        pthread_join(t[k], NULL);
    printf("%u %u\n", a->count, b->count);
    free(a);
    free(b);
    return 0;
}
