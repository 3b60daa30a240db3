/* An error path that releases the lock early. process() locks `m`; on the
 * error path it unlocks and then bumps `errors`; on the normal path it
 * updates `count` (and sometimes `errors`) before unlocking. `count` is
 * always under m: NORACE. `errors` is written with and without m: RACE on
 * both writes. */
#include <pthread.h>
#include <stdio.h>

#define ITER 20000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long count;
long errors;

static int process(int v)
{
    pthread_mutex_lock(&m);
    if (v % 5 == 0) {
        pthread_mutex_unlock(&m);
        errors++; // RACE: m released on the error path
        return -1;
    }
    count++; // NORACE: m held on the normal path
    if (v % 7 == 0)
        errors--; // RACE: m held here but not in the error path
    pthread_mutex_unlock(&m);
    return 0;
}

static void *worker(void *arg)
{
    long ok = 0;
    for (int i = 0; i < ITER; i++)
        ok += process(i + (int)(long)arg) == 0;
    ok += process(0) == 0;
    return (void *)ok;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)0L);
    pthread_create(&t2, NULL, worker, (void *)3L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", count); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
