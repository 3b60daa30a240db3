/* memset on shared arrays. `grid` is cleared with memset and updated by both
 * workers holding `m`: NORACE. `cache` is cleared with memset by both
 * workers with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define N 16
#define ITER 1000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int grid[N];
int cache[N];

static void *worker(void *arg)
{
    long id = (long)arg;
    memset(cache, (int)id, sizeof cache); // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        if (i % 100 == 0)
            memset(grid, 0, sizeof grid); // NORACE: m held
        grid[i % N] += (int)id; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
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
    printf("%d\n", grid[0]); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
