// Each worker is created with a fresh object of its own, allocated in the create loop: the
// objects share one allocation-site label, but each belongs to the one thread it was handed
// to (an unpack for the thread's whole life), so the workers' accesses to their own arguments
// do not race with each other, even through a helper or after a conversion.
// What must stay racy: the creator touching an argument after handing it over, a worker
// publishing its argument, and one object handed to two threads.
#include <pthread.h>
#include <stdlib.h>

struct task {
    int id;
    long sum;
    long seen;
    int steps;
};

static struct task *published;

static void step(struct task *t, int k) {
    t->sum += k; // NORACE needs=existentials
}

static void *worker(void *arg) {
    struct task *t = (struct task *)arg;
    for (int k = 0; k < t->id; k++) // NORACE: only read after the hand-over
        step(t, k);
    t->steps++; // RACE: main writes it after the create
    return NULL;
}

static void *consumer(void *arg) {
    struct task *t = arg;
    long total = t->sum + t->id; // NORACE needs=existentials
    free(arg); // NORACE needs=existentials
    return (void *)total;
}

static void *publisher(void *arg) {
    struct task *t = arg;
    t->sum = 1; // NORACE: only the publisher writes it
    t->seen = 1; // RACE: the reader reaches it through the global
    published = t; // RACE: published and read without a lock
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    struct task *t = published; // RACE: published and read without a lock
    if (t != NULL)
        t->seen = 2; // RACE: the publisher writes it as its own
    return NULL;
}

static void *sharer(void *arg) {
    struct task *t = arg;
    t->id++; // RACE: both sharers were handed the same object
    return NULL;
}

int main(void) {
    pthread_t w[4], p, r, s1, s2;
    for (int i = 0; i < 4; i++) {
        struct task *t = malloc(sizeof *t);
        t->id = i; // NORACE: not yet handed over
        t->sum = 0; // NORACE: not yet handed over
        t->steps = 0; // NORACE: not yet handed over
        pthread_create(&w[i], NULL, worker, t);
        t->steps = -1; // RACE: handed over already
    }
    pthread_t c[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&c[i], NULL, consumer, calloc(1, sizeof(struct task)));
    for (int i = 0; i < 3; i++)
        pthread_join(c[i], NULL);
    struct task *mine = calloc(1, sizeof *mine);
    pthread_create(&p, NULL, publisher, mine);
    pthread_create(&r, NULL, reader, NULL);
    struct task *both = calloc(1, sizeof *both);
    pthread_create(&s1, NULL, sharer, both);
    pthread_create(&s2, NULL, sharer, both);
    for (int i = 0; i < 4; i++)
        pthread_join(w[i], NULL);
    pthread_join(p, NULL);
    pthread_join(r, NULL);
    pthread_join(s1, NULL);
    pthread_join(s2, NULL);
    return 0;
}
