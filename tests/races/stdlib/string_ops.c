/* Mixed string functions on shared strings. `current` is built with strncpy
 * and strcat and compared with strcmp by both threads, always holding `m`:
 * NORACE. `shadow` is written with strncpy by the writer and read with
 * strlen by the reader, with no lock: RACE on both calls. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define ITER 1000

static const char *const keys[3] = { "red", "green", "blue" };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char current[32];
char shadow[32];

static void *writer(void *arg)
{
    (void)arg;
    strncpy(shadow, keys[2], sizeof shadow - 1); // RACE: the reader strlen's shadow unlocked
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        strncpy(current, keys[i % 3], sizeof current - 1); // NORACE: m held
        strcat(current, "!"); // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *reader(void *arg)
{
    long same = 0;
    (void)arg;
    same += (long)strlen(shadow); // RACE: the writer strncpy's shadow unlocked
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        same += strcmp(current, "green!") == 0; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return (void *)same;
}

int main(void)
{
    pthread_t w, r;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    puts("done");
    return 0;
}
