/* Lock wrapper functions. acquire/release wrap pthread_mutex_lock/unlock of
 * their argument; stats_lock/stats_unlock wrap a fixed global mutex and call
 * acquire/release in turn (wrappers of wrappers). `balance` and `stats` are
 * always accessed between a wrapper pair: NORACE. peek() reads `stats`
 * without any lock while the workers write it: RACE on both sides. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

pthread_mutex_t bal_m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t stats_m = PTHREAD_MUTEX_INITIALIZER;
long balance;
long stats;

static void acquire(pthread_mutex_t *m) { pthread_mutex_lock(m); }
static void release(pthread_mutex_t *m) { pthread_mutex_unlock(m); }
static void stats_lock(void) { acquire(&stats_m); }
static void stats_unlock(void) { release(&stats_m); }

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        acquire(&bal_m);
        balance += 5; // NORACE: bal_m via acquire()
        release(&bal_m);
        stats_lock();
        stats++; // RACE: peek() reads stats without stats_m
        stats_unlock();
    }
    return NULL;
}

static void *peek(void *arg)
{
    long s = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++)
        s += stats; // RACE: no lock
    acquire(&bal_m);
    s += balance; // NORACE: bal_m via acquire()
    release(&bal_m);
    return (void *)s;
}

int main(void)
{
    pthread_t w1, w2, p;
    pthread_create(&w1, NULL, worker, NULL);
    pthread_create(&w2, NULL, worker, NULL);
    pthread_create(&p, NULL, peek, NULL);
    pthread_join(w1, NULL);
    pthread_join(w2, NULL);
    pthread_join(p, NULL);
    puts("done");
    return 0;
}
