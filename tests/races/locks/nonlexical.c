/* Lock acquired in one function and released in another (non-lexical).
 * begin_update() locks `m` and returns; commit() writes `journal` and then
 * unlocks the `m` its caller acquired. `balance` and `journal` are accessed
 * with m held: NORACE. finish() unlocks m first and only then writes `last`,
 * which the workers write under m: RACE on both writes of `last`. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long balance;
long journal;
long last;

static void begin_update(void) { pthread_mutex_lock(&m); }

static void commit(long v)
{
    journal = v; // NORACE: m acquired by begin_update in the caller
    pthread_mutex_unlock(&m);
}

static void finish(long v)
{
    pthread_mutex_unlock(&m);
    last = v; // RACE: m already released
}

static void *closer(void *arg)
{
    (void)arg;
    begin_update();
    balance = 0; // NORACE: m held since begin_update
    finish(-1);
    return NULL;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ITER; i++) {
        begin_update();
        balance += id; // NORACE: m held since begin_update
        last = id; // RACE: finish() writes last without m
        commit(balance);
    }
    return NULL;
}

int main(void)
{
    pthread_t c, a, b;
    pthread_create(&c, NULL, closer, NULL);
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(c, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
