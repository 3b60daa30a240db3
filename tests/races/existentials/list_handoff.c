// A work queue of two linked lists under one mutex: main and a producer thread each append a
// task to `todo`, a worker takes one off (unlinking it under the mutex), computes on it without a
// lock and pushes it onto `done`, where main takes it back. Whoever took a task off a list owns
// it until it publishes it again, so the accesses in between need no lock. A task written after
// it was published races with its next owner: the producer's `tag` after the append, a worker's
// `late` after the push. Clearing `next` before the append does not race with the append
// through `todo_tail`, which a take resets when it empties the list.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
    int in, out, tag, late;
    struct task *next;
};

static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static struct task *todo, *todo_tail, *done;

static void put(struct task *t) {
    t->next = NULL; // NORACE needs=existentials
    pthread_mutex_lock(&qm);
    if (todo_tail)
        todo_tail->next = t;
    else
        todo = t;
    todo_tail = t;
    pthread_cond_signal(&more);
    pthread_mutex_unlock(&qm);
}

static void *worker(void *arg) {
    pthread_mutex_lock(&qm);
    while (todo == NULL)
        pthread_cond_wait(&more, &qm);
    struct task *t = todo;
    todo = t->next;
    if (todo == NULL)
        todo_tail = NULL;
    pthread_mutex_unlock(&qm);
    t->out = t->in * t->in; // NORACE needs=existentials
    t->out += t->tag; // RACE
    pthread_mutex_lock(&qm);
    t->next = done;
    done = t;
    pthread_mutex_unlock(&qm);
    t->late = 1; // RACE
    return arg;
}

static struct task *make(int in) {
    struct task *t = malloc(sizeof *t);
    t->in = in, t->tag = 0, t->late = 0; // NORACE: not yet published
    return t;
}

static void *producer(void *arg) {
    struct task *t = make(2);
    put(t);
    t->tag = 1; // RACE
    return arg;
}

int main(void) {
    pthread_t w[3];
    pthread_create(&w[0], NULL, worker, NULL);
    pthread_create(&w[1], NULL, worker, NULL);
    pthread_create(&w[2], NULL, producer, NULL);
    put(make(1));
    long sum = 0;
    for (int got = 0; got < 2;) {
        pthread_mutex_lock(&qm);
        struct task *t = done;
        if (t != NULL)
            done = t->next;
        pthread_mutex_unlock(&qm);
        if (t == NULL)
            continue;
        sum += t->out; // NORACE needs=existentials
        sum += t->late; // RACE
        got++;
    }
    for (int i = 0; i < 3; i++)
        pthread_join(w[i], NULL);
    printf("%ld\n", sum);
    return 0;
}
