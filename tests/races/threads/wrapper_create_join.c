/* Thread-creation and join wrappers: `spawn` calls pthread_create with the
 * thread-id pointer its caller passes, and `wait_for` joins the id its caller
 * passes. main writes `config` before spawning the first worker: NORACE.
 * While that worker runs, main and the worker update `ticks`: RACE. The
 * workers add to `result` holding `m`, and main reads it without the lock
 * only after wait_for has joined every worker, the first one singly and the
 * others in a join loop over the create loop's array: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 20000
#define NW 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long config;
long ticks;
long result;

static int spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg);
}

static void wait_for(pthread_t t)
{
    pthread_join(t, NULL);
}

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ITER; i++)
        ticks++; // RACE: main updates ticks while the first worker runs
    pthread_mutex_lock(&m);
    result += config + id; // NORACE needs=sharing: m held; config written before the first spawn
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t t, w[NW];
    config = 7; // NORACE needs=sharing: no thread yet
    spawn(&t, worker, NULL);
    for (int i = 0; i < ITER; i++)
        ticks--; // RACE: the first worker updates ticks
    wait_for(t);
    for (long i = 0; i < NW; i++)
        spawn(&w[i], worker, (void *)(i + 1));
    for (int i = 0; i < NW; i++)
        wait_for(w[i]);
    printf("%ld\n", result); // NORACE needs=joins: every worker was joined through wait_for
    return 0;
}
