/* strcpy and strlen on shared strings. `name` is written with strcpy and
 * measured with strlen by both threads, always holding `m`: NORACE.
 * `title` is written with strcpy by the writer and measured with strlen by
 * the reader, neither holding a lock: RACE on both calls. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define ITER 2000

static const char *const words[4] = { "north", "east", "south", "west" };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char name[32];
char title[32];

static void *writer(void *arg)
{
    (void)arg;
    strcpy(title, words[1]); // RACE: the reader calls strlen(title) without a lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        strcpy(name, words[i % 4]); // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *reader(void *arg)
{
    size_t total = 0;
    (void)arg;
    total += strlen(title); // RACE: the writer strcpy's title without a lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        total += strlen(name); // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return (void *)total;
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
