// A pool of worker objects created in a loop, each handed to its own thread; the main thread
// later updates every worker under that worker's lock. One worker field is read by main
// without the lock.
#include <pthread.h>
#include <stdlib.h>

struct worker {
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int pending;
    int done;
    int id;
};

static void *run(void *arg) {
    struct worker *w = arg;
    pthread_mutex_lock(&w->lock);
    while (w->pending == 0) // NORACE needs=existentials
        pthread_cond_wait(&w->wake, &w->lock);
    w->pending--; // NORACE needs=existentials
    w->done++; // RACE: main reads done without the lock
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int main(void) {
    struct worker *pool[3];
    for (int i = 0; i < 3; i++) {
        struct worker *w = malloc(sizeof *w);
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->wake, NULL);
        w->pending = 0; // NORACE: not yet published
        w->done = 0; // NORACE: not yet published
        w->id = i; // NORACE: not yet published
        pool[i] = w;
        pthread_create(&w->tid, NULL, run, w);
    }
    for (int i = 0; i < 3; i++) {
        struct worker *w = pool[i];
        pthread_mutex_lock(&w->lock);
        w->pending++; // NORACE needs=existentials
        pthread_cond_signal(&w->wake);
        pthread_mutex_unlock(&w->lock);
    }
    int seen = 0;
    for (int i = 0; i < 3; i++)
        seen += pool[i]->done; // RACE: read without the worker's lock
    for (int i = 0; i < 3; i++)
        pthread_join(pool[i]->tid, NULL);
    return seen < 0;
}
