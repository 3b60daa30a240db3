/* A pointer to a member kept in a global, and the enclosing object recovered from it with
 * container_of: `setup` stores `&d->dev` in `current_dev`; each worker steps back from it to
 * the `struct device_data` and increments its `opens` with no lock (RACE), and its `closes`
 * holding `m` (NORACE). */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct dev {
    int id;
};

struct device_data {
    long opens;
    long closes;
    struct dev dev;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct dev *current_dev;

static void setup(void)
{
    struct device_data *d = calloc(1, sizeof *d);
    if (d == NULL)
        abort();
    current_dev = &d->dev;
}

static void *worker(void *arg)
{
    struct device_data *d = container_of(current_dev, struct device_data, dev);
    (void)arg;
    d->opens++; // RACE: both workers, no lock
    pthread_mutex_lock(&m);
    d->closes++; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    setup();
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    struct device_data *d = container_of(current_dev, struct device_data, dev);
    printf("%ld %ld\n", d->opens, d->closes);
    free(d);
    return 0;
}
