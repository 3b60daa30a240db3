/* A list of accounts annotated with locksmith.h: each account keeps its lock with its balance
 * (an existential package), packed once initialised and unpacked wherever its balance is used.
 * Compiles with any C11 compiler, where every annotation is nothing. */
#include <pthread.h>
#include <stdlib.h>
#include "locksmith.h"

struct account {
    pthread_mutex_t lock;
    long balance;
    struct account *next;
};
LOCKSMITH_EXISTENTIAL(account, lock, balance);

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct account *accounts;

static void open_account(long initial) {
    struct account *a = malloc(sizeof *a);
    if (a == NULL)
        return;
    pthread_mutex_init(&a->lock, NULL);
    a->balance = initial;
    LOCKSMITH_PACK(a);
    pthread_mutex_lock(&list_lock);
    a->next = accounts;
    accounts = a;
    pthread_mutex_unlock(&list_lock);
}

static void *deposit_all(void *arg) {
    long amount = *(long *)arg;
    pthread_mutex_lock(&list_lock);
    struct account *a = accounts;
    pthread_mutex_unlock(&list_lock);
    while (a != NULL) {
        LOCKSMITH_UNPACK(a);
        pthread_mutex_lock(&a->lock);
        a->balance += amount;
        pthread_mutex_unlock(&a->lock);
        LOCKSMITH_END_UNPACK(a);
        a = a->next;
    }
    return NULL;
}

int main(void) {
    for (int i = 0; i < 3; i++)
        open_account(100);
    static long one = 1, two = 2;
    pthread_t t1, t2;
    pthread_create(&t1, NULL, deposit_all, &one);
    pthread_create(&t2, NULL, deposit_all, &two);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
