/* An error-checking mutex locked again by its holder: the second lock fails
 * with EDEADLK, so the helper's unlock releases the caller's hold, and the
 * caller's write after the helper is unprotected: RACE on it and on the other
 * thread's write. (With a recursive mutex it would be protected; see
 * recursive_mutex.c.) `stamp` is written before the helper: NORACE. */
#include <pthread.h>

static pthread_mutex_t m;
long count;
long stamp;

static void touch(void)
{
    pthread_mutex_lock(&m);
    stamp++; // NORACE: m held by the caller (this lock fails)
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        stamp++; // NORACE: m held
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
    pthread_mutexattr_t attr;
    pthread_t a, b;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &attr);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, other, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return (int)(count & 1);
}
