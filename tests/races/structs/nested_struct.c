/* Nested structs. o.in.x is guarded by A and o.in.y by B (fields of an inner
 * struct): NORACE needs=field. o.z, a field of the outer struct, is written
 * by both threads without a lock: RACE. o.in is also reached through a
 * pointer to the inner struct. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct inner {
    long x;
    long y;
};

struct outer {
    struct inner in;
    long z;
};

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
struct outer o;

static void *worker(void *arg)
{
    struct inner *ip = &o.in;
    (void)arg;
    o.z++; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&A);
        o.in.x++; // NORACE needs=field: x always under A
        pthread_mutex_unlock(&A);
        pthread_mutex_lock(&B);
        ip->y += 2; // NORACE needs=field: y always under B
        pthread_mutex_unlock(&B);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&B);
    printf("%ld\n", o.in.y); // NORACE: B held
    pthread_mutex_unlock(&B);
    return 0;
}
