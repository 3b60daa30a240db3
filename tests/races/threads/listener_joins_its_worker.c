/* A thread that starts a thread of its own and joins it before it returns:
 * the parent does not wait for that join. `main` starts `listener`, which
 * starts `worker` and joins it; meanwhile `main` writes `config`, which
 * `worker` reads with no lock: RACE on both lines. `served` is written by
 * `worker` and read by `main` only after joining `listener`, which joined
 * `worker` first: NORACE (the join of a thread ends the threads it joined). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int config;
long served;

static void *worker(void *arg)
{
    (void)arg;
    usleep(2000);
    served = config; // RACE: reads config while main may write it
    return NULL;
}

static void *listener(void *arg)
{
    pthread_t t;
    (void)arg;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    return NULL;
}

int main(void)
{
    pthread_t l;
    pthread_create(&l, NULL, listener, NULL);
    usleep(1000);
    config = 2; // RACE: the worker may be reading it
    usleep(3000);
    pthread_join(l, NULL);
    printf("%ld\n", served); // NORACE: worker was joined by listener, listener by main
    return 0;
}
