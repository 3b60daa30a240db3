// While an object's own lock is held, calling a function that takes and releases a global
// lock (statistics, logging) leaves the object's lock held; calling one that releases the lock
// its parameter points to, or the object's own lock, does not.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct stats {
    pthread_mutex_t lock;
    long events;
};

struct item {
    pthread_mutex_t lock;
    long hits;
    long after_stats;
    long after_drop;
    long after_unlock;
};

static struct stats global_stats = {PTHREAD_MUTEX_INITIALIZER, 0};
static struct item *items[3];

static void release(pthread_mutex_t *m) { pthread_mutex_unlock(m); }

static void stats_event(struct stats *s) {
    pthread_mutex_lock(&s->lock);
    s->events++; // NORACE
    release(&s->lock);
}

static void drop(pthread_mutex_t *m) { release(m); }

static void item_unlock(struct item *it) { release(&it->lock); }

static void *worker(void *arg) {
    struct item *it = items[*(int *)arg % 3];
    pthread_mutex_lock(&it->lock);
    it->hits++; // NORACE needs=existentials
    stats_event(&global_stats);
    it->after_stats++; // NORACE needs=existentials
    pthread_mutex_unlock(&it->lock);

    pthread_mutex_lock(&it->lock);
    drop(&it->lock);
    usleep(1000);
    it->after_drop++; // RACE: the helper released the item's lock
    pthread_mutex_lock(&it->lock);
    item_unlock(it);
    it->after_unlock++; // RACE: the helper released the item's lock
    return NULL;
}

int main(void) {
    for (int i = 0; i < 3; i++) {
        struct item *it = calloc(1, sizeof *it);
        pthread_mutex_init(&it->lock, NULL);
        items[i] = it;
    }
    static int ids[2] = {0, 3};
    pthread_t a, b;
    pthread_create(&a, NULL, worker, &ids[0]);
    pthread_create(&b, NULL, worker, &ids[1]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
