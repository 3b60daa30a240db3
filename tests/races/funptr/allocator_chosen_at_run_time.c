/* An allocator chosen at run time (`alloc_fn` is `malloc`, or a zeroing allocator when asked
 * for) and called through its pointer by a wrapper that returns what it got: `xalloc` returns
 * `alloc_fn(size)`. The call through the pointer is resolved after `main` is generated, so the
 * wrapper's result was still untyped when `main` gave its copy the type `struct account`: the
 * field `balance` existed only at the callers, on no object, and `cash->balance`, updated by
 * both workers without a lock, was a missed race. The copy of an object at such a call is the
 * object's memory too, and takes its callers' shape as the object does. The count of rounds,
 * a field of the same object updated only by `main` after the joins, does not race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITER 1000

struct account {
    long balance;
    long rounds;
};

static void *zeroed(size_t size)
{
    return calloc(1, size);
}

static void *(*alloc_fn)(size_t) = malloc;

static void *xalloc(size_t size)
{
    return alloc_fn(size);
}

static struct account *cash;

static void *worker(void *arg)
{
    for (int i = 0; i < ITER; i++) {
        cash->balance++; // RACE
    }
    return arg;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--zeroed") == 0)
        alloc_fn = zeroed;
    cash = xalloc(sizeof *cash);
    if (cash == NULL)
        return 1;
    cash->balance = 0;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    cash->rounds = 2 * ITER; // NORACE
    printf("%ld %ld\n", cash->rounds, cash->balance);
    free(cash);
    return 0;
}
