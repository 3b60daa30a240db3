/* The caller holds the lock around an indirect call. `apply` points to
 * add_total, which touches `total` without locking itself; every call
 * through `apply` is made with `m` held: NORACE. `note` points to set_misc,
 * called through the pointer after `m` is released by both workers, and it
 * writes `misc`: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
long misc;

static void add_total(long v)
{
    total += v; // NORACE: every caller of apply holds m
}

static void set_misc(long v)
{
    misc = v; // RACE: called through note without a lock
}

static void (*const apply)(long) = add_total;
static void (*const note)(long) = set_misc;

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        apply(id);
        pthread_mutex_unlock(&m);
        note(i);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", total); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
