/* Three levels of threads: main starts `outer`, which starts `middle`,
 * which starts `inner`; each joins the thread it started. `middle` writes
 * `request` before starting `inner` and reads `reply` after joining it;
 * `inner` reads `request` and writes `reply`: NORACE, ordered by `middle`'s
 * own create and join, two levels below main. `outer` likewise writes
 * `setting` before starting `middle`, and both lower threads read it:
 * NORACE. `noise` is updated by `outer` while `middle` and `inner` run, and
 * by `inner`: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 20000

long setting;
long request;
long reply;
long noise;

static void *inner(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        noise++; // RACE: outer updates noise while this thread runs
    reply = request * 2 + setting; // NORACE needs=sharing: request and setting are written before this thread starts, reply read after it is joined
    return NULL;
}

static void *middle(void *arg)
{
    pthread_t t;
    (void)arg;
    request = setting + 1; // NORACE needs=sharing: inner does not exist yet
    pthread_create(&t, NULL, inner, NULL);
    pthread_join(t, NULL);
    reply += 1; // NORACE needs=sharing,joins: inner was joined
    return NULL;
}

static void *outer(void *arg)
{
    pthread_t t;
    (void)arg;
    setting = 5; // NORACE needs=sharing: middle does not exist yet
    pthread_create(&t, NULL, middle, NULL);
    for (int i = 0; i < ITER; i++)
        noise--; // RACE: inner updates noise
    pthread_join(t, NULL);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, outer, NULL);
    pthread_join(t, NULL);
    printf("%ld\n", reply); // NORACE needs=sharing,joins: every thread was joined
    return 0;
}
