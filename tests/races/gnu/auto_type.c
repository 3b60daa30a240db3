/* GNU `__auto_type`: the declared pointer takes its initializer's type, `int *`.
 * RACE: both workers increment `shared` through `q`, no lock.
 * NORACE: `guarded` through `r`, under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int shared;
int guarded;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        __auto_type q = &shared;
        (*q)++; // RACE: no lock
        pthread_mutex_lock(&lock);
        __auto_type r = &guarded;
        *r += 1; // NORACE: lock held
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
