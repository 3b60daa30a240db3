/* Records handed from a producer to a consumer through a ring of `void *`
 * slots indexed through a `void **` pointer. The ring's counters and slots
 * are used under `ring.lock`: NORACE. The producer stamps each record after
 * pushing it, while the consumer may already read the stamp: RACE on
 * `stamp`. (This fixture guards the typing of `p[i]` for `p` of type
 * `void **`: the element is a `void *` that carries the record; typed as
 * `void`, the record would never reach the consumer.) */
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>

#define N 200

struct record { int len; int stamp; };
struct ring { pthread_mutex_t lock; void **slots; int head, tail; };

static struct ring ring = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

static void push(struct ring *r, void *item)
{
    pthread_mutex_lock(&r->lock);
    r->slots[r->tail % N] = item; // NORACE: r->lock held
    r->tail++; // NORACE: r->lock held
    pthread_mutex_unlock(&r->lock);
}

static void *pop(struct ring *r)
{
    void *item = NULL;
    pthread_mutex_lock(&r->lock);
    if (r->head < r->tail) { // NORACE: r->lock held
        item = r->slots[r->head % N]; // NORACE: r->lock held
        r->head++; // NORACE: r->lock held
    }
    pthread_mutex_unlock(&r->lock);
    return item;
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        struct record *rec = malloc(sizeof *rec);
        rec->len = i;
        push(&ring, rec);
        rec->stamp = i; // RACE: the consumer may already read it
    }
    return NULL;
}

static void *consumer(void *arg)
{
    long sum = 0;
    (void)arg;
    for (int got = 0; got < N;) {
        struct record *rec = pop(&ring);
        if (rec == NULL)
            continue;
        sum += rec->stamp; // RACE: the producer stamps after pushing
        got++;
    }
    return (void *)sum;
}

int main(void)
{
    pthread_t p, c;
    ring.slots = calloc(N, sizeof *ring.slots);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    puts("done");
    return 0;
}
