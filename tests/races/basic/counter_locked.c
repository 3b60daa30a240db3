/* Two threads increment a global counter, always holding the global mutex
 * `lock`; main reads it at the end under the same mutex.
 * NORACE: every access to `counter` holds `lock` (consistent locking).
 * RACE: `unguarded` is incremented by both threads with no lock at all. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int counter;
int unguarded;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&lock);
        counter++; // NORACE: lock held by every thread
        pthread_mutex_unlock(&lock);
        unguarded++; // RACE: both workers, no lock
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
    pthread_mutex_lock(&lock);
    printf("%d\n", counter); // NORACE: read under lock
    pthread_mutex_unlock(&lock);
    return 0;
}
