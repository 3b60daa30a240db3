/* A reallocation wrapper, as programs keep one to check every allocation (`grow(p, n)` reallocs
 * `p`, exits on failure and returns the block), called with NULL for a string and for a struct
 * that holds its own lock. Each call is a `realloc` of its argument at the call: the string and
 * the struct are two objects. While the wrapper was an ordinary function, its block took the
 * shape every caller gave it, a string at one call and a struct at another, and became one
 * conflated location whose lock protected nothing: `stats->hits`, updated holding
 * `stats->lock`, was reported. `stats->misses` is updated without the lock, and both threads
 * write the name: those race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITER 1000

struct stats {
    pthread_mutex_t lock;
    long hits;
    long misses;
};

static struct stats *stats;
static char *name;

static void *grow(void *ptr, size_t size)
{
    ptr = realloc(ptr, size);
    if (ptr == NULL)
        exit(1);
    return ptr;
}

static void *worker(void *arg)
{
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&stats->lock);
        stats->hits++; // NORACE
        pthread_mutex_unlock(&stats->lock);
        stats->misses++; // RACE
        name[0] = (char)(i % 26 + 97); // RACE
    }
    return arg;
}

int main(void)
{
    name = grow(NULL, 8);
    strcpy(name, "main");
    name = grow(name, 64);
    stats = grow(NULL, sizeof *stats);
    pthread_mutex_init(&stats->lock, NULL);
    stats->hits = 0;
    stats->misses = 0;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %.8s\n", stats->hits, stats->misses, name);
    return 0;
}
