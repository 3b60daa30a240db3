/* GNU local labels: a macro with `__label__` expanded twice in one function, each expansion
 * with its own `retry` label.
 * RACE: `shared` is written by the first expansion in both workers, no lock.
 * NORACE: `guarded` is written by the second expansion, between lock and unlock. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int shared;
int guarded;

#define BUMP_TWICE(x)                                                                      \
    do {                                                                                   \
        __label__ retry;                                                                   \
        int n = 0;                                                                         \
    retry:                                                                                 \
        (x)++;                                                                             \
        if (++n < 2)                                                                       \
            goto retry;                                                                    \
    } while (0)

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        BUMP_TWICE(shared); // RACE: no lock
        pthread_mutex_lock(&lock);
        BUMP_TWICE(guarded); // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", shared, guarded); // NORACE: after the joins
    return 0;
}
