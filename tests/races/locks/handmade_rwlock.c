/* A readers/writer lock built from a mutex, a condition variable and two
 * counters. A reader waits until no writer holds it and counts itself in; a
 * writer waits until nobody holds it and marks itself in. Readers reading
 * `table` under the read side, and the writer writing it under the write
 * side, are NORACE; a reader that also writes `hits` under the
 * read side races with the other reader, which sleeps inside too (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t free_now;
    int readers;
    int writers;
} rwlock_t;

static rwlock_t rw = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static int table[4];
static long hits;

static void read_lock(rwlock_t *l)
{
    pthread_mutex_lock(&l->m);
    while (l->writers)
        pthread_cond_wait(&l->free_now, &l->m);
    l->readers++;
    pthread_mutex_unlock(&l->m);
}

static void read_unlock(rwlock_t *l)
{
    pthread_mutex_lock(&l->m);
    l->readers--;
    if (l->readers == 0)
        pthread_cond_broadcast(&l->free_now);
    pthread_mutex_unlock(&l->m);
}

static void write_lock(rwlock_t *l)
{
    pthread_mutex_lock(&l->m);
    while (l->writers || l->readers)
        pthread_cond_wait(&l->free_now, &l->m);
    l->writers = 1;
    pthread_mutex_unlock(&l->m);
}

static void write_unlock(rwlock_t *l)
{
    pthread_mutex_lock(&l->m);
    l->writers = 0;
    pthread_cond_broadcast(&l->free_now);
    pthread_mutex_unlock(&l->m);
}

static void *reader(void *arg)
{
    (void)arg;
    read_lock(&rw);
    usleep(50000);
    int sum = table[0] + table[3]; // NORACE: the writer holds the write side
    hits += sum; // RACE: the other reader holds the read side too
    read_unlock(&rw);
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    write_lock(&rw);
    table[0] = 1; // NORACE: readers hold the read side
    write_unlock(&rw);
    return NULL;
}

int main(void)
{
    pthread_t r1, r2, w;
    pthread_create(&r1, NULL, reader, NULL);
    pthread_create(&r2, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    pthread_join(w, NULL);
    printf("%ld\n", hits);
    return 0;
}
