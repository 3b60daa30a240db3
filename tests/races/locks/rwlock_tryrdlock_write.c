/* A read try-lock that succeeds holds the read side only. Both pollers
 * write `polls` after `pthread_rwlock_tryrdlock` succeeded: RACE, two
 * readers may hold the lock at once. After `pthread_rwlock_trywrlock`
 * succeeded they write `epoch`, which the readers read under the read side:
 * NORACE. */
#include <pthread.h>
#include <stdio.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
long polls;
long epoch;

static void *poller(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < 20000; i++) {
        if (pthread_rwlock_tryrdlock(&rw) == 0) {
            polls++; // RACE: both pollers may hold the read side
            seen += epoch; // NORACE: read side held, writers hold the write side
            pthread_rwlock_unlock(&rw);
        }
        if (i % 5000 == 0 && pthread_rwlock_trywrlock(&rw) == 0) {
            epoch++; // NORACE: write side held
            pthread_rwlock_unlock(&rw);
        }
    }
    return (void *)seen;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, poller, NULL);
    pthread_create(&b, NULL, poller, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", polls, epoch);
    return 0;
}
