/* LOCKSMITH, figure 1: munge writes through its pointer holding its lock. Two threads make the
 * same three calls: x is always written under L1, y and z under L2, so there is no race.
 * Expected: no warning (exit 0). */
#include <pthread.h>

pthread_mutex_t L1 = PTHREAD_MUTEX_INITIALIZER, L2 = PTHREAD_MUTEX_INITIALIZER;
int x, y, z;

void munge(pthread_mutex_t *l, int *p) {
    pthread_mutex_lock(l);
    *p = 3;
    pthread_mutex_unlock(l);
}

void *calls(void *arg) {
    (void)arg;
    munge(&L1, &x);
    munge(&L2, &y);
    munge(&L2, &z);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, calls, 0);
    pthread_create(&b, 0, calls, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
