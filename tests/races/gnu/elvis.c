/* GNU `a ?: b`: the pointer chosen by `p ?: &shared` is dereferenced and written by two
 * threads. Before locksmith read `?:`, `worker` was not analysed and the race disappeared.
 * RACE: `*q` is `shared` (p is null) in both workers, no lock.
 * NORACE: `guarded` is chosen the same way but only written under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int shared;
int guarded;
int *p;
int *g;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        int *q = p ?: &shared;
        (*q)++; // RACE: both workers write shared without a lock
        pthread_mutex_lock(&lock);
        int *r = g ?: &guarded;
        (*r)++; // NORACE: lock held
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
