/* Uniqueness: writes through a freshly malloc'ed pointer before the pointer
 * is published. The producer fills each message through the local `p`
 * before storing it into the global `slot` under `qm`; the consumer reads
 * and frees messages only under `qm`. The writes through `p` happen while no
 * other thread can see the message (NORACE needs=uniqueness); every other
 * access to a message holds `qm` (NORACE needs=uniqueness: without the
 * uniqueness analysis the unlocked writes would make every access of the
 * message location part of a warning). `slot` itself: NORACE. */
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>

#define MSGS 500

struct msg {
    int id;
    int len;
};

pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t qc = PTHREAD_COND_INITIALIZER;
struct msg *slot;
long consumed;

static void *producer(void *arg)
{
    (void)arg;
    for (int k = 0; k < MSGS; k++) {
        struct msg *p = malloc(sizeof *p);
        p->id = k; // NORACE needs=uniqueness: p not yet published
        p->len = k % 7; // NORACE needs=uniqueness: p not yet published
        pthread_mutex_lock(&qm);
        while (slot != NULL) // NORACE: qm held
            pthread_cond_wait(&qc, &qm);
        slot = p; // NORACE: qm held
        pthread_cond_broadcast(&qc);
        pthread_mutex_unlock(&qm);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int k = 0; k < MSGS; k++) {
        pthread_mutex_lock(&qm);
        while (slot == NULL) // NORACE: qm held
            pthread_cond_wait(&qc, &qm);
        struct msg *q = slot; // NORACE: qm held
        consumed += q->id + q->len; // NORACE needs=uniqueness: qm held
        free(q);
        slot = NULL; // NORACE: qm held
        pthread_cond_broadcast(&qc);
        pthread_mutex_unlock(&qm);
    }
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_mutex_lock(&qm);
    printf("%ld\n", consumed); // NORACE: qm held
    pthread_mutex_unlock(&qm);
    return 0;
}
