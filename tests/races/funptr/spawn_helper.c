/* Threads started by a helper that receives the thread function as a
 * parameter: spawn(fn) calls pthread_create with the function-pointer
 * variable fn. It starts pinger and ponger once each. Both update `rally`
 * holding `m`: NORACE. Both write `serve` with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long rally;
int serve;

static void *pinger(void *arg)
{
    (void)arg;
    serve = 1; // RACE: ponger writes serve too
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        rally++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *ponger(void *arg)
{
    (void)arg;
    serve = 2; // RACE: pinger writes serve too
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        rally--; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static pthread_t spawn(void *(*fn)(void *))
{
    pthread_t t;
    pthread_create(&t, NULL, fn, NULL);
    return t;
}

int main(void)
{
    pthread_t a = spawn(pinger);
    pthread_t b = spawn(ponger);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", rally); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
