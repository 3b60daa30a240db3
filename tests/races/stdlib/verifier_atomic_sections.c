/* The functions of the __VERIFIER_ convention that verification tasks call.
 * An atomic section (__VERIFIER_atomic_begin ... __VERIFIER_atomic_end)
 * excludes every other one, as one lock would: `balance`, updated only
 * inside sections by both threads, is NORACE. `audit_count` is updated by
 * both threads outside any section: RACE. The nondet functions keep no
 * state, so calling them from both threads is no race of its own. The
 * definitions below are for running the program (under ThreadSanitizer);
 * locksmith, which defines __LOCKSMITH__, uses its own models of them. */
#include <pthread.h>
#include <stdio.h>

#ifndef __LOCKSMITH__
static pthread_mutex_t section = PTHREAD_MUTEX_INITIALIZER;
static unsigned seed = 7;
void __VERIFIER_atomic_begin(void)
{
    pthread_mutex_lock(&section);
}
void __VERIFIER_atomic_end(void)
{
    pthread_mutex_unlock(&section);
}
int __VERIFIER_nondet_int(void)
{
    return (int)__atomic_add_fetch(&seed, 13u, __ATOMIC_RELAXED) % 5;
}
#else
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int __VERIFIER_nondet_int(void);
#endif

int balance;
int audit_count;

static void *teller(void *arg)
{
    for (int i = 0; i < 100; i++) {
        int amount = __VERIFIER_nondet_int();
        __VERIFIER_atomic_begin();
        balance += amount; // NORACE: inside an atomic section
        __VERIFIER_atomic_end();
        audit_count++; // RACE: outside any section in both threads
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
    printf("%d %d\n", balance, audit_count);
    return 0;
}
