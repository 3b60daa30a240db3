/* Struct copy assignment. `pos` is copied in and out as a whole struct by
 * both threads holding `m`: NORACE. `last` is assigned a whole struct by
 * both threads with no lock: RACE. The local copies are per thread. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct point {
    long x, y, z;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct point pos;
struct point last;

static void *worker(void *arg)
{
    long id = (long)arg;
    struct point mine = { id, 2 * id, 3 * id };
    last = mine; // RACE: both threads copy into last, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        struct point snap = pos; // NORACE: m held
        snap.x += id;
        pos = snap; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m);
    struct point p = pos; // NORACE: m held
    pthread_mutex_unlock(&m);
    printf("%ld %ld %ld\n", p.x, p.y, p.z);
    return 0;
}
