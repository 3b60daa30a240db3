/* A thread pool whose queue lives in the pool object: `p->head` and `p->tail`, under
 * `p->lock`. `submit` appends through the tail (`p->tail->next = t`) and moves it there; a
 * worker takes the first task and empties the tail with the list. The tail never points to a
 * task a worker owns, so each task is one thread's at a time and its fields are NORACE.
 * `p->served`, which each worker adds to after its last unlock, races. Before, only a tail in
 * a global was followed, and the append's write of `next` was reported. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task { long in, out; struct task *next; };

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct task *head, *tail;
    long closing, served, total;
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    for (;;) {
        struct task *t;
        pthread_mutex_lock(&p->lock);
        while (p->head == NULL && !p->closing)
            pthread_cond_wait(&p->ready, &p->lock);
        t = p->head;
        if (t == NULL) {
            pthread_mutex_unlock(&p->lock);
            p->served++; // RACE
            return NULL;
        }
        p->head = t->next;
        if (p->head == NULL)
            p->tail = NULL;
        pthread_mutex_unlock(&p->lock);
        t->out = t->in * 2; // NORACE needs=existentials
        pthread_mutex_lock(&p->lock);
        p->total += t->out;
        pthread_mutex_unlock(&p->lock);
        free(t);
    }
}

static void submit(struct pool *p, long in)
{
    struct task *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->in = in; // NORACE needs=uniqueness
    t->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->tail != NULL)
        p->tail->next = t; // NORACE needs=existentials
    else p->head = t;
    p->tail = t;
    pthread_cond_signal(&p->ready);
    pthread_mutex_unlock(&p->lock);
}

int main(void)
{
    struct pool *p = calloc(1, sizeof *p);
    pthread_t w[2];
    int i;
    if (p == NULL || pthread_mutex_init(&p->lock, NULL) || pthread_cond_init(&p->ready, NULL))
        return 1;
    for (i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, worker, p);
    for (i = 0; i < 16; i++) submit(p, i);
    pthread_mutex_lock(&p->lock);
    p->closing = 1;
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->lock);
    for (i = 0; i < 2; i++) pthread_join(w[i], NULL);
    printf("%ld %ld\n", p->served, p->total);
    free(p);
    return 0;
}
