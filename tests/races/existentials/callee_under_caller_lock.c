// An unpack that begins in the caller: each account is locked by its caller and updated by a
// helper that receives the account pointer. One helper is also called once without the lock,
// and another unlocks before it writes.
#include <pthread.h>
#include <stdlib.h>

struct account {
    pthread_mutex_t lock;
    long balance;
    int ops;
    int audits;
    int closed;
};

static struct account *accounts[4];

static void deposit(struct account *a, long amount) {
    a->balance += amount; // NORACE needs=existentials
    a->ops++; // NORACE needs=existentials
}

static void audit(struct account *a) {
    a->audits++; // RACE: called once without the account's lock
}

static void close_account(struct account *a) {
    pthread_mutex_unlock(&a->lock);
    a->closed = 1; // RACE: the lock was released inside this helper
}

static void *teller(void *arg) {
    long amount = *(long *)arg;
    for (int i = 0; i < 4; i++) {
        struct account *a = accounts[i];
        pthread_mutex_lock(&a->lock);
        deposit(a, amount);
        audit(a);
        pthread_mutex_unlock(&a->lock);
    }
    struct account *last = accounts[3];
    pthread_mutex_lock(&last->lock);
    close_account(last);
    return NULL;
}

static void *auditor(void *arg) {
    (void)arg;
    audit(accounts[0]);
    return NULL;
}

int main(void) {
    for (int i = 0; i < 4; i++) {
        struct account *a = calloc(1, sizeof *a);
        pthread_mutex_init(&a->lock, NULL);
        accounts[i] = a;
    }
    static long ten = 10, twenty = 20;
    pthread_t x, y, z;
    pthread_create(&x, NULL, teller, &ten);
    pthread_create(&y, NULL, teller, &twenty);
    pthread_create(&z, NULL, auditor, NULL);
    pthread_join(x, NULL);
    pthread_join(y, NULL);
    pthread_join(z, NULL);
    return 0;
}
