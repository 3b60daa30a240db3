/* Global function-pointer variables. `on_tick` is set by main before the
 * first fork and only read afterwards (NORACE); the function it points to
 * updates `ticks` under `m` (NORACE). `on_done` is re-pointed by main after
 * the workers started while they read it: RACE on main's write and on the
 * workers' read of the variable. Both done_* callbacks update `finished`
 * under `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long ticks, finished;
void (*on_tick)(long);
void (*on_done)(void);

static void tick_locked(long v)
{
    pthread_mutex_lock(&m);
    ticks += v; // NORACE: m held
    pthread_mutex_unlock(&m);
}

static void done_a(void)
{
    pthread_mutex_lock(&m);
    finished += 1; // NORACE: m held
    pthread_mutex_unlock(&m);
}

static void done_b(void)
{
    pthread_mutex_lock(&m);
    finished += 2; // NORACE: m held
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
    (void)arg;
    void (*cb)(void) = on_done; // RACE: main re-points on_done concurrently
    for (int i = 0; i < ITER; i++) {
        void (*t)(long) = on_tick; // NORACE needs=sharing: written only before the fork
        t(i);
    }
    cb();
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    on_tick = tick_locked; // NORACE needs=sharing: before the first fork
    on_done = done_a;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    on_done = done_b; // RACE: the workers read on_done
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
