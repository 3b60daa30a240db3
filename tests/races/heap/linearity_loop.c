/* Mutexes allocated in a loop: one abstract lock for many run-time locks.
 * main allocates a fresh mutex per worker inside the create loop and hands
 * it to that worker; each worker increments the global `counter` holding
 * its own mutex, so no two workers share a lock: RACE. The abstract lock of
 * the allocation site is correlated with `counter` everywhere; only the
 * linearity check (the site runs in a loop, so the label is not linear)
 * reports it: needs=linearity. `done` is updated under the global `dm`:
 * NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 3
#define ITER 2000

pthread_mutex_t dm = PTHREAD_MUTEX_INITIALIZER;
long counter;
long done;

static void *worker(void *arg)
{
    pthread_mutex_t *own = arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(own);
        counter++; // RACE needs=linearity: every worker holds its own mutex
        pthread_mutex_unlock(own);
    }
    pthread_mutex_lock(&dm);
    done++; // NORACE: dm held
    pthread_mutex_unlock(&dm);
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    for (int i = 0; i < NT; i++) {
        pthread_mutex_t *l = malloc(sizeof *l);
        pthread_mutex_init(l, NULL);
        pthread_create(&th[i], NULL, worker, l);
    }
    for (int i = 0; i < NT; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&dm);
    printf("%ld\n", done); // NORACE: dm held
    pthread_mutex_unlock(&dm);
    return 0;
}
