/* _Thread_local and __thread variables are per thread: each thread has its
 * own copy, so the unlocked increments are NORACE. The same holds for a
 * `static _Thread_local` local. `last_total` is an ordinary global written
 * by both threads without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

_Thread_local long tl_count;
__thread int tl_depth;
long last_total;

static long step(void)
{
    static _Thread_local int calls;
    calls++; // NORACE: thread-local static
    return calls;
}

static void *worker(void *arg)
{
    long t = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        tl_count += 2; // NORACE: _Thread_local
        tl_depth = i % 5; // NORACE: __thread
        t += step();
    }
    t += tl_count + tl_depth; // NORACE: thread-local reads
    last_total = t; // RACE: ordinary global, both threads
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
