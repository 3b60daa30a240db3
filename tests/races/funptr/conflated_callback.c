/* A callback stored in a struct whose memory is later conflated must still be called.
 *
 * `start` hands its `void *` argument to the thread it creates, once with an integer
 * (the worker's number, cast to a pointer) and once with a `struct service *`: the
 * argument's memory is conflated into one blob, and through `service_reset`, called
 * on both a heap service and the global one, so is `global_service`. `global_service.on_tick`
 * was set to `count_tick` before that: the ticker thread calls it, and `count_tick`'s write of
 * `ticks` races with the counter thread's increment (lines 27 and 48).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct service;
typedef void (*tick_fn)(struct service *, unsigned);
struct service {
    unsigned state;
    tick_fn on_tick;
};

unsigned ticks;
struct service global_service;

static void count_tick(struct service *s, unsigned n)
{
    (void)s;
    ticks = n; // RACE
}

static void service_reset(struct service *s) { s->state = 0; }

static void start(pthread_t *t, void *(*body)(void *), void *arg)
{
    if (pthread_create(t, NULL, body, arg) != 0)
        abort();
}

static void *ticker(void *arg)
{
    struct service *s = arg;
    s->on_tick(s, 7);
    return NULL;
}

static void *counter(void *arg)
{
    (void)arg;
    ticks++; // RACE
    return NULL;
}

static void *inspector(void *arg)
{
    struct service *s = arg;
    return (void *)(uintptr_t)s->state;
}

int main(void)
{
    struct service *local = malloc(sizeof *local);
    pthread_t a, b, c;
    uintptr_t worker_number = 1;
    if (local == NULL)
        return 1;
    service_reset(local);
    service_reset(&global_service);
    global_service.on_tick = count_tick;
    if (pthread_create(&a, NULL, ticker, &global_service) != 0)
        abort();
    start(&b, counter, (void *)worker_number);
    start(&c, inspector, local);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    free(local);
    return 0;
}
