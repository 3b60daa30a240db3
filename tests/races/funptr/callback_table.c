/* Calls through a table of callbacks. Each handler in `handlers` is called
 * by both workers through the function pointer. on_add and on_count take
 * their own global mutex around their data: NORACE. on_trace writes
 * `last_event` without any lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000
#define NH 3

pthread_mutex_t sum_m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t cnt_m = PTHREAD_MUTEX_INITIALIZER;
long sum, count, last_event;

static void on_trace(long v)
{
    last_event = v; // RACE: called by both workers, no lock
}

static void on_add(long v)
{
    pthread_mutex_lock(&sum_m);
    sum += v; // NORACE: sum_m held
    pthread_mutex_unlock(&sum_m);
}

static void on_count(long v)
{
    (void)v;
    pthread_mutex_lock(&cnt_m);
    count++; // NORACE: cnt_m held
    pthread_mutex_unlock(&cnt_m);
}

static void (*const handlers[NH])(long) = { on_trace, on_add, on_count };

static void *worker(void *arg)
{
    (void)arg;
    for (int i = ITER; i >= 0; i--)
        handlers[i % NH](i);
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
