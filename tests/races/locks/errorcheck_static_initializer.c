/* An error-checking mutex made by glibc's static initializer, locked again
 * by its holder: the second lock fails with EDEADLK, so the helper's unlock
 * releases the caller's hold, and the caller's write after the helper is
 * unprotected: RACE on it and on the other thread's write. The initializer
 * holds the mutex kind, which locksmith reads (with a recursive or normal
 * initializer the write would be protected, or never reached). */
#define _GNU_SOURCE
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
long count;

static void touch(void)
{
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        touch();
        count++; // RACE: touch released m
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *other(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        count--; // RACE: the worker writes it without m
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, other, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
