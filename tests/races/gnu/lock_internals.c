/* Code that clears a mutex and a condition variable through their C library members
 * (`c.__data.__wseq`, as CIL-merged programs do), which locksmith models as opaque objects: the
 * members are the objects themselves, the mutex stays a lock.
 * RACE: `ready` is written by both workers, no lock.
 * NORACE: `queued` is written holding `m`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m;
static pthread_cond_t c;
static int ready;
static long queued;

static void reset_sync(void)
{
    m.__data.__lock = 0;
    m.__data.__count = 0;
    c.__data.__wseq.__value64 = 0ULL;
    c.__data.__g_refs[0] = 0U;
    c.__data.__g_refs[1] = 0U;
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    queued++; // NORACE: m held
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    ready = 1; // RACE: both workers, no lock
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    reset_sync();
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld\n", ready, queued);
    return 0;
}
