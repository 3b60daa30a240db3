/* A `static` local inside a thread function is one object shared by every
 * thread running that function. The function is forked twice.
 * `calls` is incremented without a lock: RACE. `guarded` is incremented
 * holding `m`: NORACE. The plain local `mine` is per-thread (not checked). */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    static int calls;
    static int guarded;
    int mine = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        calls++; // RACE: static local, both threads, no lock
        pthread_mutex_lock(&m);
        guarded++; // NORACE: static local under m
        pthread_mutex_unlock(&m);
        mine++;
    }
    return (void *)(long)mine;
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
