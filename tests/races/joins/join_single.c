/* A write after pthread_join of the single thread that also wrote it.
 * `result` is written by the worker with no lock and by main only after
 * pthread_join(t): the join orders them, NORACE needs=joins. `state` is
 * written by main between pthread_create and pthread_join while the worker
 * writes it too: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

long result;
int state;

static void *worker(void *arg)
{
    (void)arg;
    state = 1; // RACE: main writes state before joining
    for (int i = 0; i < ITER; i++)
        result += i; // NORACE needs=joins: main touches result only after the join
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    state = 2; // RACE: the worker is still running
    pthread_join(t, NULL);
    result = result / 2; // NORACE needs=joins: the only other writer was joined
    printf("%ld\n", result); // NORACE needs=joins: after the join
    return 0;
}
