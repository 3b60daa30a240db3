/* Read-only sharing. `weights` is initialised statically and never written;
 * `scale` is written by main before the first pthread_create and only read
 * afterwards. Both are read by two threads without a lock: NORACE, reads
 * never race. `total` is updated under `m`: NORACE. `last` is written by
 * both threads with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

const int weights[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
int scale;
long total;
long last;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    long sum = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        sum += weights[i % 8]; // NORACE: never written
        sum *= scale; // NORACE needs=sharing: written only before the fork
        sum %= 1000003;
    }
    last = sum; // RACE: both threads write, no lock
    pthread_mutex_lock(&m);
    total += sum; // NORACE: under m
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    scale = 3; // NORACE needs=sharing: main, before the first fork
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", total); // NORACE: under m
    pthread_mutex_unlock(&m);
    return 0;
}
