/* Pointers that only ever hold one function, as a thread library keeps its allocator
 * (`alloc_fn = malloc`, called by a checking wrapper `xalloc`): a call through one is a direct
 * call of what it holds. Two accounts come from `xalloc`; `savings->balance` is updated holding
 * `savings->lock`, `cash->balance` without a lock: RACE, which was missed while the call through
 * `alloc_fn` was typed with the pointer's one instance of `malloc` (no access through `cash`
 * reached an object). A hook set from `main` through a parameter (`set_hook(loud)`) holds what
 * it was given, not only its initial `quiet`: it is still a call through a pointer, `loud` runs
 * in both workers, and its update races. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 1000

struct account {
    pthread_mutex_t lock;
    long balance;
};

static void *(*alloc_fn)(size_t) = malloc;

static void *xalloc(size_t size)
{
    void *block = alloc_fn(size);
    if (block == NULL)
        exit(1);
    return block;
}

static long noise;

static void quiet(void)
{
}

static void loud(void)
{
    noise++; // RACE
}

static void (*hook)(void) = quiet;

static void set_hook(void (*h)(void))
{
    hook = h;
}

static struct account *savings, *cash;

static void *worker(void *arg)
{
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&savings->lock);
        savings->balance++; // NORACE
        pthread_mutex_unlock(&savings->lock);
        cash->balance++; // RACE
        hook();
    }
    return arg;
}

int main(void)
{
    savings = xalloc(sizeof *savings);
    cash = xalloc(sizeof *cash);
    pthread_mutex_init(&savings->lock, NULL);
    savings->balance = 0;
    cash->balance = 0;
    set_hook(loud);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %ld\n", savings->balance, cash->balance, noise);
    free(savings);
    free(cash);
    return 0;
}
