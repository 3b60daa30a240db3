/* C2x attribute specifiers, which gcc reads under -std=gnu11: on a function, a local and a
 * statement. Each hid its function from the analysis before.
 * RACE: `events` is written by both workers, no lock.
 * NORACE: `handled` is written holding `m`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long events;
static long handled;

[[gnu::noinline]] static void record(int kind)
{
    [[gnu::unused]] int spare = 0;
    switch (kind) {
    case 0:
        events++; // RACE: both workers, no lock
        [[fallthrough]];
    default:
        pthread_mutex_lock(&m);
        handled++; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
}

static void *worker(void *arg)
{
    (void)arg;
    record(0);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", events, handled);
    return 0;
}
