/* Accounts are allocated in a loop, so their mutexes are one non-linear
 * label; lock_or_die() locks an account's own mutex, or reports the error
 * through a hook and exits. die() is not declared noreturn, and the hook, a
 * call through a pointer, may release any lock: only that die() never
 * returns (it ends in exit) makes lock_or_die() leave the account's own
 * lock held, so the balances both threads update under it are NORACE
 * (needs=existentials). The tally each bumps after its last unlock is a
 * RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct acct {
    pthread_mutex_t mu;
    long balance;
};
static void quiet(int rc) { (void)rc; }
static void loud(int rc) { fprintf(stderr, "error %d\n", rc); }
static void (*on_error)(int);
static struct acct *accts[2];
static long tally;

static void die(int rc)
{
    fprintf(stderr, "lock failed: %d\n", rc);
    if (on_error != NULL)
        on_error(rc);
    exit(1);
}
static void lock_or_die(struct acct *a)
{
    int rc = pthread_mutex_lock(&a->mu);
    if (rc != 0)
        die(rc);
}
static void *worker(void *arg)
{
    for (int i = 0; i < 100; i++) {
        struct acct *a = accts[(i + (arg != NULL)) % 2];
        lock_or_die(a);
        a->balance += i; // NORACE needs=existentials
        pthread_mutex_unlock(&a->mu);
    }
    tally += 100; // RACE
    return NULL;
}
int main(int argc, char **argv)
{
    pthread_t t[2];
    (void)argv;
    on_error = argc > 1 ? loud : quiet;
    for (int i = 0; i < 2; i++) {
        accts[i] = malloc(sizeof *accts[i]);
        if (accts[i] == NULL)
            abort();
        pthread_mutex_init(&accts[i]->mu, NULL);
        accts[i]->balance = 0;
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, i ? accts : NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %ld\n", accts[0]->balance, accts[1]->balance, tally);
    return 0;
}
