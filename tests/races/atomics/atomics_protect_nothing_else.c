/* An atomic operation makes only its own access atomic: it protects no other
 * access. Each worker checks a quota with an atomic load and then updates
 * `used` plainly (RACE), and `volatile` makes nothing atomic (`stop`, written
 * by main and read by the workers: RACE). A spin lock built from atomic_flag
 * does exclude its critical sections, but locksmith does not recognise an
 * atomic flag as a lock. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define ROUNDS 100000

atomic_int quota = 1 << 30;
int used;
volatile int stop;
atomic_flag busy = ATOMIC_FLAG_INIT;
long spun;

static void *worker(void *arg)
{
    for (int i = 0; i < ROUNDS && !stop; i++) { // RACE: volatile is not atomic
        if (atomic_load(&quota) > 0) { // NORACE: atomic on both sides
            for (int k = 0; k < 8; k++)
                used++; // RACE: not protected by the atomic load before it
            atomic_fetch_sub(&quota, 1); // NORACE
        }
        while (atomic_flag_test_and_set(&busy)) // NORACE
            ;
        spun++; // FALSE-ALARM: an atomic_flag spin lock is not recognised as a lock
        atomic_flag_clear(&busy); // NORACE
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    stop = 0; // RACE: the workers read it
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld\n", used, spun);
    return 0;
}
