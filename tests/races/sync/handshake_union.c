/* A hand-shake flag in a union: the producer sets `u.ready` once its table is
 * built, but a meddler writes the union's other member `u.raw`, which is the
 * same byte, early. So the waiter may see the flag set before the table is
 * built: its read of `table` is a RACE with the producer's write. A store of
 * another member of the union is a write of the flag. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static union {
    unsigned char ready;
    unsigned char raw;
} u;
static long table;

static void *producer(void *arg)
{
    usleep(20000); /* the meddler and the waiter go first */
    table = 42; // RACE: the waiter may have seen the meddler's byte
    pthread_mutex_lock(&m);
    u.ready = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return arg;
}

static void *meddler(void *arg)
{
    pthread_mutex_lock(&m);
    u.raw = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void)
{
    pthread_t p, q;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&q, NULL, meddler, NULL);
    pthread_mutex_lock(&m);
    while (!u.ready)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    printf("%ld\n", table); // RACE: the producer may not have built it
    pthread_join(p, NULL);
    pthread_join(q, NULL);
    return 0;
}
