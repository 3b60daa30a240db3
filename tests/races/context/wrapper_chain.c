/* Wrappers of wrappers, each passing its lock and data parameters down.
 * deposit -> account_add -> locked_add; deposit is used for two accounts,
 * each with its own global mutex, so the access inside locked_add always
 * holds the lock that belongs to the data: NORACE. note() goes through a
 * chain that never locks and writes `notes` from both threads: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t sav_m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t chk_m = PTHREAD_MUTEX_INITIALIZER;
long savings, checking;
long notes;

static void locked_add(pthread_mutex_t *m, long *p, long v)
{
    pthread_mutex_lock(m);
    *p += v; // NORACE: savings with sav_m, checking with chk_m
    pthread_mutex_unlock(m);
}

static void account_add(pthread_mutex_t *m, long *p, long v) { locked_add(m, p, v); }
static void deposit(pthread_mutex_t *m, long *p, long v) { account_add(m, p, v); }

static void raw_add(long *p, long v)
{
    *p += v; // RACE: notes from both threads, no lock anywhere on the chain
}

static void note(long v) { raw_add(&notes, v); }

static void *worker(void *arg)
{
    long id = (long)arg;
    note(id);
    for (int i = 0; i < ITER; i++) {
        deposit(&sav_m, &savings, id);
        deposit(&chk_m, &checking, -id);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    puts("done");
    return 0;
}
