/* The paper's figure 1, run by two threads: munge(&L1,&x); munge(&L2,&y);
 * munge(&L2,&z). munge writes through its pointer holding its lock argument,
 * so x is always accessed with L1 and y, z with L2 (context-sensitive
 * correlation): NORACE inside munge. `calls` is updated by both threads with
 * no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t L1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t L2 = PTHREAD_MUTEX_INITIALIZER;
int x, y, z;
int calls;

static void munge(pthread_mutex_t *l, int *p)
{
    pthread_mutex_lock(l);
    *p = *p + 3; // NORACE: x with L1, y and z with L2
    pthread_mutex_unlock(l);
}

static void *worker(void *arg)
{
    (void)arg;
    calls = calls + 1; // RACE: both threads, no lock
    for (int i = 0; i < ITER; i++) {
        munge(&L1, &x);
        munge(&L2, &y);
        munge(&L2, &z);
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
    pthread_mutex_lock(&L1);
    printf("%d\n", x); // NORACE: L1 held
    pthread_mutex_unlock(&L1);
    return 0;
}
