/* An object with a table of operations (a C "vtable"). The global `dev`
 * holds its mutex, its state and a pointer to a constant ops table; the
 * workers call dev.ops->start and dev.ops->stat. dev_start updates
 * `d->state` holding `d->lock`: NORACE. dev_stat bumps `d->stats` without
 * the lock: RACE. Reading `dev.ops` is NORACE: it is never written after
 * its static initialisation.
 * needs=field: with one location per struct object, the race on `stats`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct device;
struct dev_ops {
    void (*start)(struct device *);
    void (*stat)(struct device *);
};
struct device {
    pthread_mutex_t lock;
    int state;
    long stats;
    const struct dev_ops *ops;
};

static void dev_start(struct device *d)
{
    pthread_mutex_lock(&d->lock);
    d->state = !d->state; // NORACE needs=field: d->lock held
    pthread_mutex_unlock(&d->lock);
}

static void dev_stat(struct device *d)
{
    d->stats++; // RACE: no lock, both workers
}

static const struct dev_ops ops = { dev_start, dev_stat };
struct device dev = { PTHREAD_MUTEX_INITIALIZER, 0, 0, &ops };

static void *worker(void *arg)
{
    (void)arg;
    const struct dev_ops *o = dev.ops; // NORACE needs=field: never written
    for (int i = 0; i < ITER; i++) {
        o->start(&dev);
        o->stat(&dev);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
