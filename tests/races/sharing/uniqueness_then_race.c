/* The buffer is written after it was published. The producer initialises a
 * fresh message, publishes it in `slot` under `qm`, and then keeps writing
 * `p->len` without the lock while the consumer reads `slot->len` holding
 * `qm`: RACE on both. (The writes before publication are left unannotated:
 * they are race-free, but the location is racy.) `slot` is only accessed
 * under `qm`: NORACE. */
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>

#define ITER 3000

struct msg {
    int id;
    int len;
};

pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
struct msg *slot;

static void *producer(void *arg)
{
    struct msg *p = malloc(sizeof *p);
    (void)arg;
    p->id = 1;
    p->len = 0;
    pthread_mutex_lock(&qm);
    slot = p; // NORACE: qm held
    pthread_mutex_unlock(&qm);
    p->len = 5; // RACE: published, written without qm
    return NULL;
}

static void *consumer(void *arg)
{
    long s = 0;
    (void)arg;
    for (int seen = 0; seen < ITER;) {
        pthread_mutex_lock(&qm);
        struct msg *q = slot; // NORACE: qm held
        if (q != NULL) {
            s += q->len; // RACE: the producer writes len without qm
            seen++;
        }
        pthread_mutex_unlock(&qm);
    }
    return (void *)s;
}

int main(void)
{
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_mutex_lock(&qm);
    free(slot);
    pthread_mutex_unlock(&qm);
    return 0;
}
