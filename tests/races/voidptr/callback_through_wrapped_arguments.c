// A callback stored in an object that reaches its thread through a create wrapper whose
// `void *` argument carries two different struct types (an object, and a thread argument
// pointing to it), both allocated through a `void *` allocation wrapper. The wrapper's
// untyped argument meets each caller's typed memory at its own type: the object is not made
// one of its own views (which conflated it and lost the callback's target, so the call in
// `worker1` called nothing and the race in `peek` was missed). The fields written by main
// before the workers start are not races.
#include <pthread.h>
#include <stdlib.h>

struct obj {
    int x;
    int (*cb)(struct obj *);
};

struct targ {
    struct obj *o;
};

static int g;

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (p == NULL)
        abort();
    return p;
}

static struct obj *obj_new(void) { return xmalloc(sizeof(struct obj)); }

static struct targ *targ_new(struct obj *o) {
    struct targ *t = xmalloc(sizeof *t);
    t->o = o;
    return t;
}

static int peek(struct obj *o) {
    (void)o;
    return g; // RACE: main writes g while the worker calls back
}

static void *worker0(void *arg) {
    struct obj *o = arg;
    return (void *)(long)o->x; // NORACE: written by main before this thread starts
}

static void *worker1(void *arg) {
    struct targ *t = arg;
    struct obj *o = t->o; // NORACE: written by main before this thread starts
    return (void *)(long)o->cb(o);
}

static void spawn(pthread_t *t, void *(*fn)(void *), void *arg) {
    if (pthread_create(t, NULL, fn, arg) != 0)
        abort();
}

int main(void) {
    struct obj *o = obj_new();
    o->x = 1; // NORACE: before the workers start
    o->cb = peek;
    struct targ *t = targ_new(o);
    pthread_t th0, th1;
    spawn(&th0, worker0, o);
    spawn(&th1, worker1, t);
    g = 1; // RACE: the worker reads g in the callback
    pthread_join(th0, NULL);
    pthread_join(th1, NULL);
    free(t);
    free(o);
    return 0;
}
