// Per-object locks taken through two levels of wrappers: a generic one that locks the mutex
// its parameter points to, and one per type that locks its object's own mutex. The sessions
// are allocated in a loop, so only the unpack makes their counters protected.
#include <pthread.h>
#include <stdlib.h>

struct session {
    int id;
    pthread_mutex_t mu;
    long requests;
    long errors;
};

static void acquire(pthread_mutex_t *m) { pthread_mutex_lock(m); }
static void release(pthread_mutex_t *m) { pthread_mutex_unlock(m); }

static void session_lock(struct session *s) { acquire(&s->mu); }
static void session_unlock(struct session *s) { release(&s->mu); }

static struct session *sessions[3];

static void *serve(void *arg) {
    struct session *s = sessions[*(int *)arg % 3];
    for (int i = 0; i < 10; i++) {
        session_lock(s);
        s->requests++; // NORACE needs=existentials
        session_unlock(s);
    }
    session_lock(s);
    session_unlock(s);
    s->errors++; // RACE: after the unlock wrapper
    return NULL;
}

int main(void) {
    for (int i = 0; i < 3; i++) {
        struct session *s = malloc(sizeof *s);
        s->id = i; // NORACE: not yet published
        s->requests = 0; // NORACE: not yet published
        s->errors = 0; // NORACE: not yet published
        pthread_mutex_init(&s->mu, NULL);
        sessions[i] = s;
    }
    static int ids[2] = {0, 3};
    pthread_t a, b;
    pthread_create(&a, NULL, serve, &ids[0]);
    pthread_create(&b, NULL, serve, &ids[1]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
