/* A join loop over the same array and bound as the create loop, then main
 * writes the shared result without a lock. The workers update `total`
 * holding `m`; main's unlocked accesses come after every worker was joined:
 * NORACE needs=joins (on all accesses: without the join rule main's
 * unlocked write would conflict with the workers' locked ones). `last` is
 * written by every worker with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define NT 4

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
long last;

static void *worker(void *arg)
{
    long id = (long)arg;
    last = id; // RACE: every worker, no lock
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        total += id; // NORACE needs=joins: m held; main writes only after joining all
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    int i;
    for (i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, (void *)(long)i);
    for (i = 0; i < NT; i++)
        pthread_join(th[i], NULL);
    total = total / NT; // NORACE needs=joins: every worker joined
    printf("%ld\n", total); // NORACE needs=joins: every worker joined
    return 0;
}
