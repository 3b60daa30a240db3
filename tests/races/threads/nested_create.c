/* Nested thread creation: main starts `parent`, which starts `child`.
 * After the child exists, parent and child both write `g` without a lock:
 * RACE. `h` is written by main, parent and child, always holding `m`:
 * NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long g;
long h;

static void bump_h(void)
{
    pthread_mutex_lock(&m);
    h++; // NORACE: m held, every thread
    pthread_mutex_unlock(&m);
}

static void *child(void *arg)
{
    (void)arg;
    g += 2; // RACE: the parent writes g concurrently
    for (int i = 0; i < ITER; i++)
        bump_h();
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t c;
    (void)arg;
    pthread_create(&c, NULL, child, NULL);
    g += 1; // RACE: the child writes g concurrently
    for (int i = 0; i < ITER; i++)
        bump_h();
    pthread_join(c, NULL);
    return NULL;
}

int main(void)
{
    pthread_t p;
    pthread_create(&p, NULL, parent, NULL);
    for (int i = 0; i < ITER; i++)
        bump_h();
    pthread_join(p, NULL);
    puts("done");
    return 0;
}
