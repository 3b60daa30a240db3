/* libevent runs the callbacks of a loop in the thread that runs the loop: `loop_thread` sets up
 * an event whose callback is `on_request` and dispatches it, so `on_request` runs in that thread
 * only. `srv.served`, written by the callback and read by main after joining the loop's thread,
 * is ordered (NORACE); `requests`, also written by main while the loop runs, races (RACE on
 * both). The library is compiled by gcc only (a stand-in for libevent); locksmith uses its
 * libevent model. */
#include <pthread.h>
#include <stdio.h>
#include <sys/time.h>

#define EV_READ 0x02
#define EV_PERSIST 0x10
#define ITER 2000

struct event;
struct event_base;
struct event_base *event_base_new(void);
struct event *event_new(struct event_base *base, int fd, short events,
                        void (*cb)(int, short, void *), void *arg);
int event_add(struct event *ev, const struct timeval *timeout);
int event_base_dispatch(struct event_base *base);
void event_free(struct event *ev);
void event_base_free(struct event_base *base);

#ifndef __LOCKSMITH__
#include <stdlib.h>
struct event {
    void (*cb)(int, short, void *);
    void *arg;
};
struct event_base {
    struct event *ev;
};
struct event_base *event_base_new(void)
{
    return calloc(1, sizeof(struct event_base));
}
struct event *event_new(struct event_base *base, int fd, short events,
                        void (*cb)(int, short, void *), void *arg)
{
    (void)fd, (void)events;
    struct event *ev = calloc(1, sizeof *ev);
    ev->cb = cb;
    ev->arg = arg;
    base->ev = ev;
    return ev;
}
int event_add(struct event *ev, const struct timeval *timeout)
{
    (void)ev, (void)timeout;
    return 0;
}
int event_base_dispatch(struct event_base *base)
{
    for (int i = 0; i < ITER; i++)
        base->ev->cb(0, EV_READ, base->ev->arg);
    return 0;
}
void event_free(struct event *ev)
{
    free(ev);
}
void event_base_free(struct event_base *base)
{
    free(base);
}
#endif

struct server {
    long served;
};

static struct server srv;
static long requests;

static void on_request(int fd, short what, void *arg)
{
    struct server *s = arg;
    (void)fd, (void)what;
    s->served++; // NORACE: only the loop's thread runs the callback; main reads after the join
    requests++; // RACE: main writes it while the loop runs
}

static void *loop_thread(void *arg)
{
    struct event_base *base = event_base_new();
    struct event *ev = event_new(base, -1, EV_READ | EV_PERSIST, on_request, &srv);
    event_add(ev, NULL);
    event_base_dispatch(base);
    event_free(ev);
    event_base_free(base);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, loop_thread, NULL);
    for (int i = 0; i < ITER; i++)
        requests++; // RACE: on_request writes it in the loop's thread
    pthread_join(t, NULL);
    printf("%ld %ld\n", srv.served, requests); // NORACE: after the join
    return 0;
}
