/* A pthread spin lock works like a mutex. `counter` is always incremented
 * holding the spin lock `sl` (initialised by main before the first fork):
 * NORACE. `spins` is incremented by both workers without it: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

pthread_spinlock_t sl;
long counter;
long spins;

static void *worker(void *arg)
{
    (void)arg;
    spins += 1; // RACE: no lock, both workers
    for (int i = 0; i < ITER; i++) {
        pthread_spin_lock(&sl);
        counter++; // NORACE: spin lock held
        pthread_spin_unlock(&sl);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_spin_lock(&sl);
    printf("%ld\n", counter); // NORACE: spin lock held
    pthread_spin_unlock(&sl);
    pthread_spin_destroy(&sl);
    return 0;
}
