/* Locals of main whose address is given to threads are shared memory.
 * `hits` (a local of main) is incremented through a pointer by both threads
 * with no lock: RACE. `safe` (another local of main) is incremented holding
 * `m`: NORACE. `tmp` is a local of the thread: not shared, not checked. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

struct refs {
    int *hits;
    int *safe;
};

static void *worker(void *arg)
{
    struct refs *r = arg;
    int tmp = 0;
    for (int i = 0; i < ITER; i++) {
        tmp += i;
        *r->hits += 1; // RACE: both threads, no lock
        pthread_mutex_lock(&m);
        *r->safe += 1; // NORACE: always under m
        pthread_mutex_unlock(&m);
    }
    return (void *)(long)tmp;
}

int main(void)
{
    int hits = 0, safe = 0;
    struct refs r;
    pthread_t t1, t2;
    r.hits = &hits;
    r.safe = &safe;
    pthread_create(&t1, NULL, worker, &r);
    pthread_create(&t2, NULL, worker, &r);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m);
    printf("%d\n", safe); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
