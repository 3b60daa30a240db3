/* Formatting into shared buffers. `status` is written with snprintf and
 * read with fputs by both workers holding `m`: NORACE. `banner` is written
 * with sprintf by both workers without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 1000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char status[64];
char banner[64];
long lines;

static void *worker(void *arg)
{
    long id = (long)arg;
    sprintf(banner, "worker %ld starting", id); // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        snprintf(status, sizeof status, "w%ld:%d", id, i); // NORACE: m held
        lines++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_lock(&m);
    fputs(status, stdout); // NORACE: m held
    fputs("\n", stdout);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", lines); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
