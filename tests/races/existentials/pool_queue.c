// A pool object that `main` allocates and hands to every thread holds two lists under its own
// mutex: jobs to do and jobs done. A worker takes a job off `todo`, computes on it without a
// lock and pushes it onto `done`, where main takes it back; whoever took a job off a list owns
// it until it publishes it again. A job written after it was published races with its next
// owner: the producer's `tag` after the append, a worker's `late` after the push. (Clearing
// `next` before the append is reported: that `tail` never points to a job someone owns is not
// followed.)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
    int in, out, tag, late;
    struct job *next;
};

struct pool {
    pthread_mutex_t lock;
    struct job *todo, *tail, *done;
};

static void submit(struct pool *p, struct job *j) {
    j->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->tail != NULL)
        p->tail->next = j;
    else
        p->todo = j;
    p->tail = j;
    pthread_mutex_unlock(&p->lock);
}

static struct job *take(struct pool *p) {
    for (;;) {
        pthread_mutex_lock(&p->lock);
        struct job *j = p->todo;
        if (j != NULL) {
            p->todo = j->next;
            if (p->todo == NULL)
                p->tail = NULL;
        }
        pthread_mutex_unlock(&p->lock);
        if (j != NULL)
            return j;
    }
}

static void *worker(void *arg) {
    struct pool *p = arg;
    struct job *j = take(p);
    j->out = j->in * j->in; // NORACE needs=existentials
    j->out += j->tag; // RACE
    pthread_mutex_lock(&p->lock);
    j->next = p->done;
    p->done = j;
    pthread_mutex_unlock(&p->lock);
    j->late = 1; // RACE
    return NULL;
}

static struct job *make(int in) {
    struct job *j = malloc(sizeof *j);
    j->in = in, j->tag = 0, j->late = 0; // NORACE: not yet published
    return j;
}

static void *producer(void *arg) {
    struct job *j = make(2);
    submit(arg, j);
    j->tag = 1; // RACE
    return NULL;
}

int main(void) {
    struct pool *p = calloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_t t[3];
    pthread_create(&t[0], NULL, worker, p);
    pthread_create(&t[1], NULL, worker, p);
    pthread_create(&t[2], NULL, producer, p);
    submit(p, make(1));
    long sum = 0;
    for (int got = 0; got < 2;) {
        pthread_mutex_lock(&p->lock);
        struct job *j = p->done;
        if (j != NULL)
            p->done = j->next;
        pthread_mutex_unlock(&p->lock);
        if (j == NULL)
            continue;
        sum += j->out; // NORACE needs=existentials
        sum += j->late; // RACE
        got++;
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("%ld\n", sum);
    return 0;
}
