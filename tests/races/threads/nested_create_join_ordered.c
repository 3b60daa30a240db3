/* Thread structure inside a thread: main starts `parent` once and joins it;
 * `parent` writes `config` before it starts `child` and adds to `result`
 * after it has joined `child`, and `child` reads `config` and writes
 * `result`. The parent's own create and join order every one of these
 * accesses: NORACE, although the parent's and the child's accesses meet only
 * in main, where both belong to the thread main started. `progress` is
 * updated by the parent while the child runs, and by the child: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 20000

long config;
long result;
long progress;

static void *child(void *arg)
{
    long sum = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        sum += config; // NORACE needs=sharing: written by the parent before it started this thread
        progress++; // RACE: the parent updates progress while this thread runs
    }
    result = sum; // NORACE needs=sharing,joins: the parent reads it only after joining this thread
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t c;
    (void)arg;
    config = 3; // NORACE needs=sharing: the child does not exist yet
    pthread_create(&c, NULL, child, NULL);
    for (int i = 0; i < ITER; i++)
        progress++; // RACE: the child updates progress too
    pthread_join(c, NULL);
    result += config; // NORACE needs=sharing,joins: the child was joined
    return NULL;
}

int main(void)
{
    pthread_t p;
    pthread_create(&p, NULL, parent, NULL);
    pthread_join(p, NULL);
    printf("%ld\n", result); // NORACE needs=sharing,joins: the parent was joined, and it joined the child
    return 0;
}
