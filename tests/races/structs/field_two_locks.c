/* Field sensitivity: two fields of one global struct guarded by different
 * locks. `s.a` is always accessed holding A and `s.b` holding B: NORACE, but
 * only if the fields are distinct locations (field-insensitively the struct
 * is one location accessed under A and under B): needs=field. `s.c` is
 * written by both threads with no lock: RACE (and must not spread to a, b). */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct pair {
    long a;
    long b;
    long c;
};

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
struct pair s;

static void *worker(void *arg)
{
    long id = (long)arg;
    s.c = id; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&A);
        s.a += id; // NORACE needs=field: a always under A
        pthread_mutex_unlock(&A);
        pthread_mutex_lock(&B);
        s.b -= id; // NORACE needs=field: b always under B
        pthread_mutex_unlock(&B);
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
    pthread_mutex_lock(&A);
    printf("%ld\n", s.a); // NORACE: A held
    pthread_mutex_unlock(&A);
    return 0;
}
