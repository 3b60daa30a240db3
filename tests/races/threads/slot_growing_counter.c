/* A scanner hands each worker the current value of a counter kept in its
 * options struct, `opts.cur`, and retries a create that fails before it
 * moves on. The counter only grows between two successful creates, so
 * each worker owns the record `targets[cur]` main allocated for it:
 * NORACE. Every worker also bumps `opts.done` without a lock (RACE), and
 * writes the next worker's record through `cur + 1` (RACE). Main touches
 * no record once the workers may run. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 4

struct target {
    int port;
    int open;
    int peeked;
};

static struct {
    unsigned long cur;
    unsigned long count;
    int done;
} opts;

static struct target **targets;

static void *probe(void *arg)
{
    long cur = (long)arg;
    targets[cur]->open = targets[cur]->port % 2; // NORACE needs=existentials: only this worker was handed cur
    opts.done++; // RACE: every worker counts without a lock
    if ((unsigned long)cur + 1 < opts.count)
        targets[cur + 1]->peeked = 1; // RACE: the next worker writes its own record's field
    targets[cur]->peeked = 2; // RACE: the previous worker writes this field through cur + 1
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    unsigned long i;
    opts.count = N;
    targets = malloc(N * sizeof *targets);
    for (i = 0; i < N; i++) {
        targets[i] = malloc(sizeof(struct target));
        targets[i]->port = 20 + (int)i;
    }
    opts.cur = 0;
    while (opts.cur < opts.count) {
        while (1) {
            int rc = pthread_create(&t[opts.cur], NULL, probe, (void *)opts.cur);
            if (rc == 0)
                break;
            usleep(1000);
        }
        opts.cur++;
    }
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    return 0;
}
