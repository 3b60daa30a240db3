/* A mutex initialised through glibc's `__data` member instead of PTHREAD_MUTEX_INITIALIZER, in
 * both the positional and the designated form; it is still a lock.
 * RACE: `shared` is written by both workers, no lock.
 * NORACE: `guarded` and `guarded2` are written holding `m` and `m2`. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = {{0, 0, 0, 0, 0, 0, 0, {0, 0}}};
pthread_mutex_t m2 = {.__data = {.__lock = 0}};
int shared;
int guarded;
int guarded2;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        shared++; // RACE: no lock
        pthread_mutex_lock(&m);
        guarded++; // NORACE: m held
        pthread_mutex_unlock(&m);
        pthread_mutex_lock(&m2);
        guarded2++; // NORACE: m2 held
        pthread_mutex_unlock(&m2);
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
    printf("%d %d %d\n", shared, guarded, guarded2); // NORACE: after the joins
    return 0;
}
