/* The paper's linearity example in C. The global lock pointer `cur` is set
 * to a freshly allocated mutex, the first worker is started with it, then
 * `cur` is re-pointed to a second new mutex and the second worker is started
 * with that one. Both workers increment `shared` holding the mutex they were
 * given, i.e. two different run-time locks: RACE. Because both mutexes flow
 * into `cur`, the analysis gives them one lock label; only the linearity
 * check (that label stands for two locks, so it is never counted as held)
 * finds the race: needs=linearity. `total` is updated under the global
 * mutex `tm` by both workers: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 3000

pthread_mutex_t tm = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t *cur;
long shared;
long total;

static pthread_mutex_t *new_lock(void)
{
    pthread_mutex_t *l = malloc(sizeof *l);
    pthread_mutex_init(l, NULL);
    return l;
}

static void *worker(void *arg)
{
    pthread_mutex_t *l = arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(l);
        shared++; // RACE needs=linearity: each worker holds a different mutex
        pthread_mutex_unlock(l);
        pthread_mutex_lock(&tm);
        total++; // NORACE: tm held
        pthread_mutex_unlock(&tm);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    cur = new_lock();
    pthread_create(&a, NULL, worker, cur);
    cur = new_lock();
    pthread_create(&b, NULL, worker, cur);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&tm);
    printf("%ld\n", total); // NORACE: tm held
    pthread_mutex_unlock(&tm);
    return 0;
}
