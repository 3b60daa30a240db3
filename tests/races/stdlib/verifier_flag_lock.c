/* The verification tasks' lock made of a flag: a function that runs
 * atomically (its name starts with __VERIFIER_atomic_) and whose body is
 * `__VERIFIER_assume(flag == 0); flag = 1;` waits until the flag is free and
 * takes it, which is acquiring a lock; `__VERIFIER_assume(flag == 1);
 * flag = 0;` releases it. `balance`, updated only between the two by both
 * threads, is NORACE; `audits`, updated after the release, is RACE. For
 * running the program (under ThreadSanitizer) the two functions are a mutex;
 * locksmith, which defines __LOCKSMITH__, sees the flag form. */
#include <pthread.h>
#include <stdio.h>

int flag;
long balance;
long audits;

#ifdef __LOCKSMITH__
void __VERIFIER_assume(int condition);
void __VERIFIER_atomic_acquire(void)
{
    __VERIFIER_assume(flag == 0);
    flag = 1;
}
void __VERIFIER_atomic_release(void)
{
    __VERIFIER_assume(flag == 1);
    flag = 0;
}
#else
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
void __VERIFIER_atomic_acquire(void)
{
    pthread_mutex_lock(&held);
}
void __VERIFIER_atomic_release(void)
{
    pthread_mutex_unlock(&held);
}
#endif

static void *teller(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        __VERIFIER_atomic_acquire();
        balance += i; // NORACE: between taking and freeing the flag
        __VERIFIER_atomic_release();
        audits++; // RACE: after the release, in both threads
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, teller, NULL);
    pthread_create(&b, NULL, teller, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld %d\n", balance, audits, flag);
    return 0;
}
