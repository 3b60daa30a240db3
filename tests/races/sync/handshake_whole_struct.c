/* A hand-shake flag in a struct: the producer sets `st.ready` once its table
 * is built, but a meddler assigns the whole struct early, setting the flag with
 * it. So the waiter may see the flag set before the table is built: its read
 * of `table` is a RACE with the producer's write. An assignment of the whole
 * struct is a write of the flag, as a store of the flag itself would be; one
 * of the struct's other members is not. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

struct status {
    int code;
    int ready;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static struct status st;
static long table;

static void *producer(void *arg)
{
    usleep(20000); /* the meddler and the waiter go first */
    table = 42; // RACE: the waiter may have seen the meddler's flag
    pthread_mutex_lock(&m);
    st.code = 2;
    st.ready = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return arg;
}

static void *meddler(void *arg)
{
    struct status early = { 7, 1 };
    pthread_mutex_lock(&m);
    st = early;
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
    while (!st.ready)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    printf("%ld\n", table); // RACE: the producer may not have built it
    pthread_join(p, NULL);
    pthread_join(q, NULL);
    return 0;
}
