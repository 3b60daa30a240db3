// A reference-counted object shared by several threads: every get and put changes the count
// under the object's own lock. The objects come from a constructor called in a loop, so their
// locks are not linear.
#include <pthread.h>
#include <stdlib.h>

struct obj {
    pthread_mutex_t lock;
    int refs;
    int value;
};

static struct obj *objs[2];

static struct obj *obj_new(int value) {
    struct obj *o = malloc(sizeof *o);
    pthread_mutex_init(&o->lock, NULL);
    o->refs = 1; // NORACE: not yet published
    o->value = value; // NORACE: not yet published
    return o;
}

static void obj_get(struct obj *o) {
    pthread_mutex_lock(&o->lock);
    o->refs++; // RACE: peeker reads the count without the lock
    pthread_mutex_unlock(&o->lock);
}

static int obj_put(struct obj *o) {
    pthread_mutex_lock(&o->lock);
    int left = --o->refs; // RACE: peeker reads the count without the lock
    pthread_mutex_unlock(&o->lock);
    return left;
}

static void *user(void *arg) {
    struct obj *o = objs[*(int *)arg];
    obj_get(o);
    pthread_mutex_lock(&o->lock);
    o->value += 1; // NORACE needs=existentials
    pthread_mutex_unlock(&o->lock);
    obj_put(o);
    return NULL;
}

static void *peeker(void *arg) {
    (void)arg;
    return (void *)(long)objs[0]->refs; // RACE: the count read without the lock
}

int main(void) {
    for (int i = 0; i < 2; i++)
        objs[i] = obj_new(i);
    pthread_t a, b, c;
    int which[2] = {0, 1};
    pthread_create(&a, NULL, user, &which[0]);
    pthread_create(&b, NULL, user, &which[1]);
    pthread_create(&c, NULL, peeker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    for (int i = 0; i < 2; i++)
        if (obj_put(objs[i]) == 0)
            free(objs[i]);
    return 0;
}
