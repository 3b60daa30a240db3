/* A growable vector shared by two threads and grown with realloc. append()
 * holds `vm` while it checks the capacity, reallocates, stores the element
 * and bumps `len`: every access to `vec`, its elements, `len` and `cap` is
 * NORACE. `attempts` is bumped by both workers without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 2000

pthread_mutex_t vm = PTHREAD_MUTEX_INITIALIZER;
long *vec;
int len, cap;
long attempts;

static void append(long v)
{
    pthread_mutex_lock(&vm);
    if (len == cap) { // NORACE: vm held
        cap = cap ? 2 * cap : 4; // NORACE: vm held
        vec = realloc(vec, cap * sizeof *vec); // NORACE: vm held
    }
    vec[len] = v; // NORACE: vm held
    len++; // NORACE: vm held
    pthread_mutex_unlock(&vm);
}

static void *worker(void *arg)
{
    attempts++; // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++)
        append((long)arg * i);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&vm);
    printf("%d %ld\n", len, vec[len - 1]); // NORACE: vm held
    free(vec);
    pthread_mutex_unlock(&vm);
    return 0;
}
