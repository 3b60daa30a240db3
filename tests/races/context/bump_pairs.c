/* Context sensitivity: one helper bump(m, p) locks m and increments *p. It
 * is called with the pairs (&A, &x) and (&B, &y) by both threads, so x is
 * always accessed holding A and y holding B: NORACE at the access inside
 * bump, and at the direct reads below. `calls` is incremented by both
 * threads without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
long x, y;
long calls;

static void bump(pthread_mutex_t *m, long *p)
{
    pthread_mutex_lock(m);
    (*p)++; // NORACE: x always with A, y always with B
    pthread_mutex_unlock(m);
}

static void *worker(void *arg)
{
    long seen = 0;
    (void)arg;
    calls++; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        bump(&A, &x);
        bump(&B, &y);
        pthread_mutex_lock(&B);
        seen += y; // NORACE: B held
        pthread_mutex_unlock(&B);
    }
    return (void *)seen;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&A);
    printf("%ld\n", x); // NORACE: A held
    pthread_mutex_unlock(&A);
    return 0;
}
