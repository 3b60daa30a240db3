/* A parent started once per round by `run_round`, which joins it before
 * returning; main calls `run_round` in a loop, so the rounds' parents never
 * overlap. Each parent writes `job` before starting its `worker` and reads
 * `done` after joining it; the worker reads `job` and writes `done`: NORACE,
 * each parent orders its own worker and the rounds do not overlap. Each
 * parent also writes `late` before starting a `straggler` that it never
 * joins and that updates `late` for a long time: the first round's straggler
 * is still running when the second round's parent writes `late`, so the
 * rounds overlap through it: RACE on both lines. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ITER 20000

long job;
long done;
long late;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        done += job; // NORACE needs=sharing: job is written before this thread starts, done read after it is joined
    return NULL;
}

static void *straggler(void *arg)
{
    (void)arg;
    for (int i = 0; i < 200000; i++)
        late++; // RACE: the next round's parent writes late while this thread runs
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t w, s;
    job = (long)arg; // NORACE needs=sharing: this round's worker does not exist yet
    for (int i = 0; i < ITER; i++)
        late = i; // RACE: the previous round's straggler may be running
    pthread_create(&w, NULL, worker, NULL);
    pthread_join(w, NULL);
    done -= job; // NORACE needs=sharing,joins: the worker was joined
    pthread_create(&s, NULL, straggler, NULL);
    pthread_detach(s);
    return NULL;
}

static void run_round(long round)
{
    pthread_t p;
    pthread_create(&p, NULL, parent, (void *)round);
    pthread_join(p, NULL);
}

int main(void)
{
    for (long round = 0; round < 2; round++)
        run_round(round);
    usleep(100000);
    return 0;
}
