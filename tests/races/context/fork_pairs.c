/* Context sensitivity at fork sites. One thread function is started four
 * times by four separate pthread_create calls, each with its own argument
 * struct naming a (lock, counter) pair: two threads get (&A, &x), two get
 * (&B, &y). The argument structs are filled before the first fork. At each
 * fork site the lock and the counter come from the same pair, so x is always
 * accessed holding A and y holding B: NORACE. `starts` is written by every
 * thread without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 2000

struct pair {
    pthread_mutex_t *lock;
    long *count;
};

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
long x, y;
long starts;

static void *worker(void *arg)
{
    struct pair *p = arg;
    starts++; // RACE: every thread, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(p->lock);
        *p->count += 1; // NORACE: x with A, y with B
        pthread_mutex_unlock(p->lock);
    }
    return NULL;
}

int main(void)
{
    struct pair p1 = { &A, &x }, p2 = { &A, &x };
    struct pair p3 = { &B, &y }, p4 = { &B, &y };
    pthread_t t1, t2, t3, t4;
    pthread_create(&t1, NULL, worker, &p1);
    pthread_create(&t2, NULL, worker, &p2);
    pthread_create(&t3, NULL, worker, &p3);
    pthread_create(&t4, NULL, worker, &p4);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_join(t3, NULL);
    pthread_join(t4, NULL);
    puts("done");
    return 0;
}
