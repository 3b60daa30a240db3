/* The forms a try-lock's test takes. The lock is held where the call
 * returned 0: tested directly against 0, against EBUSY (a valid mutex's
 * only failure), through `!`, or through a local variable holding the
 * result. A timed lock is a try-lock: held only where it returned 0.
 * A result saved and tested in one condition counts too; only the first test
 * of a saved result holds the lock (by a later one it may have been
 * released: `retested` is RACE). `spoiled` shows a saved result that does
 * not decide anything: the variable is assigned again in the loop, so the
 * test may see another value, and the write under it is unprotected: RACE. `unchecked` is written after a timed
 * lock whose result is ignored (it may have timed out): RACE. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 20000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long direct, busy, saved, declared, timed, spoiled, unchecked, inline_saved, retested;

static void *worker(void *arg)
{
    struct timespec soon;
    for (int i = 0; i < ROUNDS; i++) {
        if (pthread_mutex_trylock(&m) == EBUSY) {
            sched_yield();
        } else {
            busy++; // NORACE: held unless the call returned EBUSY
            pthread_mutex_unlock(&m);
        }
        int rc = pthread_mutex_trylock(&m);
        if (rc == 0) {
            declared++; // NORACE: the declaration saved the result
            pthread_mutex_unlock(&m);
        }
        int got;
        got = pthread_mutex_trylock(&m);
        if (!got) {
            saved++; // NORACE: the assignment saved the result
            pthread_mutex_unlock(&m);
        }
        if (pthread_mutex_trylock(&m) != 0)
            continue;
        direct++; // NORACE: reached only when the try-lock returned 0
        pthread_mutex_unlock(&m);
        clock_gettime(CLOCK_REALTIME, &soon);
        soon.tv_nsec = 0;
        if (pthread_mutex_timedlock(&m, &soon) == 0) {
            timed++; // NORACE: held when the timed lock returned 0
            pthread_mutex_unlock(&m);
        }
        int again;
        if ((again = pthread_mutex_trylock(&m)) == 0) {
            inline_saved++; // NORACE: saved and tested in one condition
            pthread_mutex_unlock(&m);
        }
        if (again == 0)
            retested++; // RACE: tested again after the unlock
        int r = pthread_mutex_trylock(&m);
        for (int k = 0; k < 2; k++) {
            if (r == 0) {
                spoiled++; // RACE: in the second round, r is not the try-lock's result
                if (k == 0)
                    pthread_mutex_unlock(&m);
            }
            r = 0;
        }
    }
    for (int i = 0; i < ROUNDS; i++) {
        clock_gettime(CLOCK_REALTIME, &soon);
        int rc = pthread_mutex_timedlock(&m, &soon);
        unchecked++; // RACE: the timed lock may have failed
        if (rc == 0) {
            sched_yield();
            pthread_mutex_unlock(&m);
        }
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld %ld %ld %ld %ld %ld %ld %ld\n", direct, busy, saved, declared, timed, spoiled,
           unchecked, inline_saved, retested);
    return 0;
}
