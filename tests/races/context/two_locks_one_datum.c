/* The same helper called with two different locks for the same data.
 * add_under(m, p, v) adds v to *p holding m. credit() passes
 * (&acct_lock, &balance), audit() passes (&audit_lock, &balance) and
 * (&audit_lock, &audits): `balance` is accessed under two different locks,
 * RACE at the access inside add_under. `audits` alone is consistently
 * guarded by audit_lock, so the direct read of it in audit() is NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t acct_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;
long balance;
long audits;

static void add_under(pthread_mutex_t *m, long *p, long v)
{
    pthread_mutex_lock(m);
    *p += v; // RACE: balance is reached with acct_lock and with audit_lock
    pthread_mutex_unlock(m);
}

static void *credit(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        add_under(&acct_lock, &balance, 10);
    return NULL;
}

static void *audit(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        add_under(&audit_lock, &balance, -1);
        add_under(&audit_lock, &audits, 1);
        pthread_mutex_lock(&audit_lock);
        seen += audits; // NORACE: audits always under audit_lock
        pthread_mutex_unlock(&audit_lock);
    }
    return (void *)seen;
}

int main(void)
{
    pthread_t c, a1, a2;
    pthread_create(&c, NULL, credit, NULL);
    pthread_create(&a1, NULL, audit, NULL);
    pthread_create(&a2, NULL, audit, NULL);
    pthread_join(c, NULL);
    pthread_join(a1, NULL);
    pthread_join(a2, NULL);
    puts("done");
    return 0;
}
