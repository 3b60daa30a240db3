/* A mutex stored in a global struct beside the data it guards.
 * `st.count` and `st.bytes` are always accessed holding `st.lock` (a mutex
 * field of a global struct): NORACE. `errors` is a plain global written by
 * both workers without any lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

struct stats {
    pthread_mutex_t lock;
    long count;
    long bytes;
};

struct stats st = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
int errors;

static void *worker(void *arg)
{
    long n = (long)arg;
    errors = errors + 1; // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&st.lock);
        st.count++; // NORACE: st.lock held
        st.bytes += n; // NORACE: st.lock held
        pthread_mutex_unlock(&st.lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)16L);
    pthread_create(&b, NULL, worker, (void *)32L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&st.lock);
    printf("%ld %ld\n", st.count, st.bytes); // NORACE: st.lock held
    pthread_mutex_unlock(&st.lock);
    return 0;
}
