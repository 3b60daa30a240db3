// A pointer to a field guarded by its object's lock is kept in a global and used by another
// thread without that lock: the accesses through the pointer are outside every unpack.
#include <pthread.h>
#include <stdlib.h>

struct counter {
    pthread_mutex_t lock;
    long value;
};

static struct counter *counters[2];
static long *fast_path;

static void *bump(void *arg) {
    struct counter *c = arg;
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&c->lock);
        c->value++; // RACE: the value is also written through fast_path
        pthread_mutex_unlock(&c->lock);
    }
    return NULL;
}

static void *sneak(void *arg) {
    (void)arg;
    *fast_path = 0; // RACE: no lock of the counter held
    return NULL;
}

int main(void) {
    for (int i = 0; i < 2; i++) {
        struct counter *c = malloc(sizeof *c);
        pthread_mutex_init(&c->lock, NULL);
        c->value = 0; // NORACE: not yet published
        counters[i] = c;
    }
    fast_path = &counters[0]->value;
    pthread_t a, b, s;
    pthread_create(&a, NULL, bump, counters[0]);
    pthread_create(&b, NULL, bump, counters[1]);
    pthread_create(&s, NULL, sneak, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(s, NULL);
    return 0;
}
