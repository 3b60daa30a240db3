/* A function that returns with a lock held, and another that releases it.
 * acct_get() locks `bank` and returns a pointer into the global `accounts`
 * array; the caller updates the account and acct_put() unlocks. All account
 * fields are accessed with `bank` held: NORACE. `audits` is bumped by both
 * workers before they take any lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define NACC 4
#define ITER 4000

struct account {
    long balance;
    long ops;
};

pthread_mutex_t bank = PTHREAD_MUTEX_INITIALIZER;
struct account accounts[NACC];
long audits;

static struct account *acct_get(int i)
{
    pthread_mutex_lock(&bank);
    return &accounts[i % NACC];
}

static void acct_put(void) { pthread_mutex_unlock(&bank); }

static void *worker(void *arg)
{
    long id = (long)arg;
    audits++; // RACE: no lock, both workers
    for (int i = 0; i < ITER; i++) {
        struct account *a = acct_get(i + (int)id);
        a->balance += id; // NORACE: bank held since acct_get
        a->ops++; // NORACE: bank held since acct_get
        acct_put();
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    struct account *a = acct_get(0);
    printf("%ld %ld\n", a->balance, a->ops); // NORACE: bank held
    acct_put();
    return 0;
}
