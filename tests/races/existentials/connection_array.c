// An array of connection structs, each with its own lock; each handler thread gets a pointer to
// one element, and a statistics thread walks them all, locking each in turn.
#include <pthread.h>
#include <string.h>

#define NCONN 4

struct conn {
    int fd;
    pthread_mutex_t lock;
    char buf[64];
    int used;
    long served;
};

static struct conn conns[NCONN];
static long total;

static void *handler(void *arg) {
    struct conn *c = arg;
    for (int k = 0; k < 8; k++) {
        pthread_mutex_lock(&c->lock);
        if (c->used < 63) // NORACE needs=existentials
            c->buf[c->used++] = 'x'; // NORACE needs=existentials
        c->served++; // NORACE needs=existentials
        pthread_mutex_unlock(&c->lock);
    }
    total++; // RACE: no lock at all
    return NULL;
}

static void *stats(void *arg) {
    (void)arg;
    long sum = 0;
    for (int i = 0; i < NCONN; i++) {
        pthread_mutex_lock(&conns[i].lock);
        sum += conns[i].served; // NORACE needs=existentials
        conns[i].used = 0; // NORACE needs=existentials
        pthread_mutex_unlock(&conns[i].lock);
    }
    return (void *)sum;
}

int main(void) {
    pthread_t t[NCONN], s;
    for (int i = 0; i < NCONN; i++) {
        pthread_mutex_init(&conns[i].lock, NULL);
        conns[i].fd = i; // NORACE: before the threads
        memset(conns[i].buf, 0, sizeof conns[i].buf);
    }
    for (int i = 0; i < NCONN; i++)
        pthread_create(&t[i], NULL, handler, &conns[i]);
    pthread_create(&s, NULL, stats, NULL);
    for (int i = 0; i < NCONN; i++)
        pthread_join(t[i], NULL);
    pthread_join(s, NULL);
    return 0;
}
