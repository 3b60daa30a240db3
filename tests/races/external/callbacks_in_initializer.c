/* A table of operations initialised where it is defined, `dev_ops = { .poll = poll_dev }`, is
 * handed to unknown code (`register_dev`), which keeps it and calls its operations later, from
 * a thread of its own (an event loop, a driver core): `poll_dev` runs while main goes on, so
 * its write of `polls` races with main's (RACE on both). The table's other operation
 * `close_dev` writes `closed` under `m`, as main reads it: NORACE. A table the program never
 * hands over (`spare_ops`, static: no other file can name it) is never called: `spare_hits` is
 * written by main only. */
#include <pthread.h>
#include <stdio.h>

struct dev_ops {
    void (*poll)(void);
    void (*close)(void);
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long polls;
static int closed;
static long spare_hits;

static void poll_dev(void)
{
    polls++; // RACE: main writes it while the library polls
}

static void close_dev(void)
{
    pthread_mutex_lock(&m);
    closed = 1; // NORACE: m held
    pthread_mutex_unlock(&m);
}

static void spare(void)
{
    spare_hits++;
}

static struct dev_ops dev_ops = {.poll = poll_dev, .close = close_dev};
static struct dev_ops spare_ops = {.poll = spare, .close = spare};

void register_dev(struct dev_ops *ops);
void shutdown_devs(void);

#ifndef __LOCKSMITH__
static pthread_t loop;

static void *event_loop(void *arg)
{
    struct dev_ops *ops = arg;
    ops->poll();
    ops->close();
    return NULL;
}

void register_dev(struct dev_ops *ops)
{
    pthread_create(&loop, NULL, event_loop, ops);
}

void shutdown_devs(void)
{
    pthread_join(loop, NULL);
}
#endif

int main(void)
{
    if (spare_ops.poll == NULL)
        return 1;
    register_dev(&dev_ops);
    polls++; // RACE: poll_dev writes it in the library's thread
    spare_hits++; // NORACE: spare_ops is never handed over
    pthread_mutex_lock(&m);
    printf("%d %ld\n", closed, spare_hits); // NORACE: m held
    pthread_mutex_unlock(&m);
    shutdown_devs();
    return 0;
}
