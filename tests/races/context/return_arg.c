/* Helpers that return one of their pointer arguments. touch(m, p) bumps *p
 * under m and returns p; the caller keeps writing through the returned
 * pointer while holding the matching lock. Called for (&A, &x) and (&B, &y):
 * the returned pointer is x at the first call site and y at the second
 * (context-sensitive return), so all accesses are NORACE. pick(p) just
 * returns p; both threads write `scratch` through pick(&scratch) without
 * any lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
long x, y, scratch;

static long *touch(pthread_mutex_t *m, long *p)
{
    pthread_mutex_lock(m);
    (*p)++; // NORACE: x with A, y with B
    pthread_mutex_unlock(m);
    return p;
}

static long *pick(long *p) { return p; }

static void *worker(void *arg)
{
    long *s = pick(&scratch);
    *s = (long)arg; // RACE: scratch written through the result, no lock
    for (int i = 0; i < ITER; i++) {
        long *px = touch(&A, &x);
        pthread_mutex_lock(&A);
        *px += 2; // NORACE: px is &x, A held
        pthread_mutex_unlock(&A);
        long *py = touch(&B, &y);
        pthread_mutex_lock(&B);
        *py -= 1; // NORACE: py is &y, B held
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
    puts("done");
    return 0;
}
