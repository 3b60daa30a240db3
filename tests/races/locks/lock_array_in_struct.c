/* An array of mutexes inside a struct is many locks with one label: holding
 * `bank.m[1]` and holding `bank.m[2]` do not exclude each other. The two
 * tellers update `bank.total` under different elements of the array: RACE
 * on both writes. `bank.audits` is updated under `bank.audit_m`, a plain
 * mutex field: NORACE. */
#include <pthread.h>
#include <stdio.h>

struct bank {
    pthread_mutex_t m[4];
    pthread_mutex_t audit_m;
    long total;
    long audits;
};

struct bank bank = {
    .m = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
           PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER },
    .audit_m = PTHREAD_MUTEX_INITIALIZER,
};

static void *teller(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&bank.m[id]);
        bank.total += id; // RACE: the two tellers hold different elements
        pthread_mutex_unlock(&bank.m[id]);
        pthread_mutex_lock(&bank.audit_m);
        bank.audits++; // NORACE: audit_m held
        pthread_mutex_unlock(&bank.audit_m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, teller, (void *)1L);
    pthread_create(&b, NULL, teller, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", bank.total, bank.audits);
    return 0;
}
