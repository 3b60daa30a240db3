/* A call through a pointer that may hold either of two functions runs one of them: what follows
 * may rely only on what both do. `enter` holds `lock_plain` or `lock_counted`, which both take
 * `m`, so `both` is updated holding `m` (NORACE). Each of the others, chosen in `main`, holds the
 * no-op unless the program is given an argument. After `maybe_enter`, `m` may not be held
 * (RACE); after `finish`, the loader may not be joined (RACE); after `await`, the table may not
 * be filled (RACE; `ready` is signalled under `r`, which nothing else takes). All three were
 * missed, and `enter` reported as a self-deadlock, while the targets of one call ran one after
 * the other, each after what the one before it did (take `m`, join, wait for `ready`). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#define ITER 1000
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, r = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
static long both, maybe, counted, after_finish, table[8];
static int ready;
static pthread_t loader_thread;
static void lock_plain(void) { pthread_mutex_lock(&m); }
static void lock_counted(void) { pthread_mutex_lock(&m); counted++; } // NORACE
static void unlock_m(void) { pthread_mutex_unlock(&m); }
static void no_op(void) { }
static void join_loader(void) { pthread_join(loader_thread, NULL); }
static void wait_ready(void)
{
    pthread_mutex_lock(&r);
    while (!ready)
        pthread_cond_wait(&filled, &r);
    pthread_mutex_unlock(&r);
}

static void (*enter)(void) = lock_plain;
static void (*maybe_enter)(void) = lock_plain, (*maybe_leave)(void) = unlock_m;
static void (*finish)(void) = join_loader, (*await)(void) = wait_ready;
static void *loader(void *arg)
{
    usleep(2000);
    for (int i = 0; i < 8; i++)
        table[i] = i; // RACE: read after `await`, which may not wait for `ready`
    after_finish++; // RACE: main goes on after `finish`, which may not join
    pthread_mutex_lock(&r);
    ready = 1;
    pthread_cond_broadcast(&filled);
    pthread_mutex_unlock(&r);
    return arg;
}
static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        enter();
        both++; // NORACE: both targets take m
        unlock_m();
        maybe_enter();
        maybe++; // RACE: maybe_enter may not lock
        maybe_leave();
    }
    await();
    return (void *)table[7]; // RACE: the loader may not have filled it
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 2)
        enter = lock_counted;
    if (argc < 2)
        maybe_enter = maybe_leave = finish = await = no_op;
    pthread_t t[2];
    pthread_create(&loader_thread, NULL, loader, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    finish();
    after_finish++; // RACE: the loader may still run
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (finish == no_op)
        pthread_join(loader_thread, NULL);
    printf("%ld %ld %ld %ld\n", both, maybe, counted, after_finish);
    return 0;
}
