/* A create wrapper that takes the thread's function as a parameter, called
 * with a different function each time: each call starts only the function
 * it names. `produced` is written by the one producer only and `consumed` by
 * the one consumer only (NORACE), both of which were reported when every call
 * was taken to start both functions. `rounds` is written by both (RACE), and
 * the helpers started in a loop through the same wrapper race with each other
 * on `helper_runs` (RACE). */
#include <pthread.h>
#include <stdlib.h>

long produced;
long consumed;
long rounds;
long helper_runs;

static void spawn(pthread_t *t, void *(*routine)(void *), void *arg)
{
    if (pthread_create(t, NULL, routine, arg) != 0)
        abort();
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        produced++; // NORACE: only the producer
    rounds++; // RACE: the consumer writes it too
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        consumed++; // NORACE: only the consumer
    rounds++; // RACE: the producer writes it too
    return NULL;
}

static void *helper(void *arg)
{
    (void)arg;
    helper_runs++; // RACE: the other helpers write it too
    return NULL;
}

int main(void)
{
    pthread_t p, c, h[3];
    spawn(&p, producer, NULL);
    spawn(&c, consumer, NULL);
    for (int i = 0; i < 3; i++)
        spawn(&h[i], helper, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(h[i], NULL);
    return produced + consumed + rounds + helper_runs < 0;
}
