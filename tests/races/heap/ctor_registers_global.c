/* A constructor whose lock reaches a global is one lock label for all its calls.
 * channel_new() allocates a channel with its own mutex and also records it in
 * the global `last_channel`, so the channel's labels are the global's: every
 * call of channel_new() returns memory with the same labels. Two channels are
 * made; the sender bumps `messages` holding chan_a->lock, the receiver holding
 * chan_b->lock — two different mutexes: RACE. The one lock label stands for two
 * run-time locks, so it must not count as held (needs=linearity: without the
 * linearity check the "common lock" hides the race). `log_lines` is guarded by
 * the global `log_lock` in both threads: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct channel {
    pthread_mutex_t lock;
    int depth;
};

static struct channel *last_channel;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static long messages;
static long log_lines;

static struct channel *channel_new(void)
{
    struct channel *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    last_channel = c;
    return c;
}

static struct channel *chan_a, *chan_b;

static void *sender(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&chan_a->lock);
    messages++; // RACE needs=linearity: chan_a->lock is not chan_b->lock
    pthread_mutex_unlock(&chan_a->lock);
    pthread_mutex_lock(&log_lock);
    log_lines++; // NORACE: log_lock held
    pthread_mutex_unlock(&log_lock);
    return NULL;
}

static void *receiver(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&chan_b->lock);
    messages++; // RACE needs=linearity: chan_b->lock is not chan_a->lock
    pthread_mutex_unlock(&chan_b->lock);
    pthread_mutex_lock(&log_lock);
    log_lines++; // NORACE: log_lock held
    pthread_mutex_unlock(&log_lock);
    return NULL;
}

int main(void)
{
    pthread_t s, r;
    chan_a = channel_new();
    chan_b = channel_new();
    pthread_create(&s, NULL, sender, NULL);
    pthread_create(&r, NULL, receiver, NULL);
    pthread_join(s, NULL);
    pthread_join(r, NULL);
    pthread_mutex_lock(&log_lock);
    printf("%ld %d\n", log_lines, last_channel->depth);
    pthread_mutex_unlock(&log_lock);
    return 0;
}
