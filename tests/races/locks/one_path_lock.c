/* A lock held on only one path before the access. `x` is incremented with
 * `m` held on odd iterations only; at the join point the must-held lockset
 * is empty, and at run time the even iterations really are unprotected:
 * RACE. `a`, `b` and `total` are accessed after `m` was acquired on both
 * branches of an if/else, so m is held on every path: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long x;
long a, b, total;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        if (i & 1)
            pthread_mutex_lock(&m);
        x++; // RACE: m held on odd iterations only
        if (i & 1)
            pthread_mutex_unlock(&m);
        if (i % 3 == 0) {
            pthread_mutex_lock(&m);
            a++; // NORACE: m held
        } else {
            pthread_mutex_lock(&m);
            b++; // NORACE: m held
        }
        total++; // NORACE: m acquired on both branches
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    puts("done");
    return 0;
}
