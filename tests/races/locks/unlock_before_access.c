/* The classic bug: the mutex is released one statement too early.
 * `y` is incremented inside the critical section: NORACE. `x` is incremented
 * right after pthread_mutex_unlock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long x, y;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        y++; // NORACE: inside the critical section
        pthread_mutex_unlock(&m);
        x++; // RACE: m was released just before
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", y); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
