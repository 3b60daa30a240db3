/* `__thread` and `_Thread_local` variables parse (what they mean, per-thread objects, is not
 * this fixture's concern: their lines are not annotated).
 * RACE: `shared` is written by both workers, no lock.
 * NORACE: `guarded` is written under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
__thread int tl;
_Thread_local int tl2;
int shared;
int guarded;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        tl++;
        tl2++;
        shared++; // RACE: no lock
        pthread_mutex_lock(&lock);
        guarded++; // NORACE: lock held
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
