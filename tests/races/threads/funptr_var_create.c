/* Thread functions passed to pthread_create through a function-pointer
 * variable. `fn` first holds careful(), then sloppy(); sloppy() runs in two
 * threads. `guarded` is written by both functions holding `m`: NORACE.
 * `racy` is written by sloppy() without a lock in two threads: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long guarded;
long racy;

static void *careful(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        guarded += 2; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *sloppy(void *arg)
{
    (void)arg;
    racy++; // RACE: two sloppy threads, no lock
    pthread_mutex_lock(&m);
    guarded--; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    void *(*fn)(void *) = careful;
    pthread_t a, b, c;
    pthread_create(&a, NULL, fn, NULL);
    fn = sloppy;
    pthread_create(&b, NULL, fn, NULL);
    pthread_create(&c, NULL, fn, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    puts("done");
    return 0;
}
