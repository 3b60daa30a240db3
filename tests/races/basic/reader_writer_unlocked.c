/* One thread writes `temp` holding `m`, another thread reads it without the
 * lock: RACE on both lines (the lock is not held at every access).
 * `humidity` is written and read with `m` held on both sides: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 5000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int temp;
int humidity;

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        temp = i; // RACE: the reader does not take m
        humidity = i / 2; // NORACE: under m on both sides
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *reader(void *arg)
{
    long acc = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        acc += temp; // RACE: read without m
        pthread_mutex_lock(&m);
        acc += humidity; // NORACE: under m
        pthread_mutex_unlock(&m);
    }
    return (void *)acc;
}

int main(void)
{
    pthread_t w, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    puts("done");
    return 0;
}
