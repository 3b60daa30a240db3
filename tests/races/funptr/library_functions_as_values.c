/* Library functions used as values, as a thread library keeps them (an allocator to allow
 * replacing it, lock functions in a table): a call through a pointer holding `malloc` allocates,
 * and calls through pointers holding `pthread_mutex_lock` and `pthread_mutex_unlock` lock and
 * unlock, exactly as direct calls do. `counter->value` is updated holding `counter->m`, taken
 * through the pointers: NORACE. `tally->value` lives in memory allocated through the pointer
 * too and is updated without a lock: RACE (missed while a pointer to `malloc` allocated
 * nothing). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 2000

struct lock {
    pthread_mutex_t m;
    long value;
};

static void *(*alloc_fn)(size_t) = malloc;
static void (*free_fn)(void *) = free;

struct lock_ops {
    int (*take)(pthread_mutex_t *);
    int (*drop)(pthread_mutex_t *);
};
static const struct lock_ops ops = { pthread_mutex_lock, pthread_mutex_unlock };

static struct lock *counter, *tally;

static struct lock *new_lock(long v)
{
    struct lock *l = alloc_fn(sizeof *l);
    if (!l)
        exit(1);
    pthread_mutex_init(&l->m, NULL);
    l->value = v;
    return l;
}

static void *worker(void *arg)
{
    for (int i = 0; i < ITER; i++) {
        ops.take(&counter->m);
        counter->value++; // NORACE: counter->m held, taken through ops.take
        ops.drop(&counter->m);
        tally->value++; // RACE: no lock, both workers
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    counter = new_lock(0);
    tally = new_lock(0);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", counter->value, tally->value);
    free_fn(counter);
    free_fn(tally);
    return 0;
}
