/* A readers/writer lock built by hand that does not exclude: the writer
 * waits only for other writers, so a reader inside may read `config` while it
 * writes (RACE). It is not taken for a lock, and its functions are analysed
 * as written: both accesses hold no lock. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t ok;
    int readers, writers;
} rw_t;

static rw_t a = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static int config;

static void rd(rw_t *l)
{
    pthread_mutex_lock(&l->m);
    while (l->writers)
        pthread_cond_wait(&l->ok, &l->m);
    l->readers++;
    pthread_mutex_unlock(&l->m);
}

static void rd_done(rw_t *l)
{
    pthread_mutex_lock(&l->m);
    l->readers--;
    pthread_cond_broadcast(&l->ok);
    pthread_mutex_unlock(&l->m);
}

static void wr_ignoring_readers(rw_t *l)
{
    pthread_mutex_lock(&l->m);
    while (l->writers)
        pthread_cond_wait(&l->ok, &l->m);
    l->writers++;
    pthread_mutex_unlock(&l->m);
}

static void wr_done(rw_t *l)
{
    pthread_mutex_lock(&l->m);
    l->writers--;
    pthread_cond_broadcast(&l->ok);
    pthread_mutex_unlock(&l->m);
}

static void *reader(void *arg)
{
    (void)arg;
    rd(&a);
    usleep(100000);
    printf("%d\n", config); // RACE: the writer does not wait for readers
    rd_done(&a);
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    usleep(20000);
    wr_ignoring_readers(&a);
    config = 2; // RACE: a reader may be inside
    wr_done(&a);
    return NULL;
}

int main(void)
{
    pthread_t r, w;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(r, NULL);
    pthread_join(w, NULL);
    return 0;
}
