/* Thread ids kept in heap objects reached through local pointers, as a thread library keeps a
 * handle per thread (`struct worker { pthread_t id; … }`): `pthread_join(b->id)` joins the
 * thread created into `&b->id`, so `by_b`, written by that thread, is main's own after it:
 * NORACE. The thread created into `&a->id` is still running there: `by_a` races until `a->id`
 * is joined. Before, a thread id in a heap object named through a pointer was no handle a join
 * could trust, and both reads after the joins were reported. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct worker {
    pthread_t id;
    long pad;
};

static long by_a, by_b;

static void *run_a(void *arg)
{
    by_a++; // RACE
    return arg;
}

static void *run_b(void *arg)
{
    by_b++; // NORACE needs=joins
    return arg;
}

int main(void)
{
    struct worker *a = malloc(sizeof *a);
    struct worker *b = malloc(sizeof *b);
    if (a == NULL || b == NULL)
        return 1;
    pthread_create(&a->id, NULL, run_a, NULL);
    pthread_create(&b->id, NULL, run_b, NULL);
    pthread_join(b->id, NULL);
    by_b++; // NORACE needs=joins
    by_a++; // RACE
    pthread_join(a->id, NULL);
    by_a++; // NORACE needs=joins
    printf("%ld %ld\n", by_a, by_b);
    free(a);
    free(b);
    return 0;
}
