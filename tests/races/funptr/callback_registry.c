/* A callback registered at run time. The registrar stores a function
 * pointer into the global `slot` under `reg_m`; two invokers read `slot`
 * under `reg_m` and call it after unlocking. Accesses to `slot`: NORACE.
 * The registered callback counts into `events` under `ev_m` (NORACE) and
 * stores its argument into `last_arg` with no lock, and both invokers call
 * it: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t reg_m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ev_m = PTHREAD_MUTEX_INITIALIZER;
void (*slot)(long);
long events, last_arg;

static void record(long v)
{
    pthread_mutex_lock(&ev_m);
    events++; // NORACE: ev_m held
    pthread_mutex_unlock(&ev_m);
    last_arg = v; // RACE: both invokers, no lock
}

static void *registrar(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&reg_m);
    slot = record; // NORACE: reg_m held
    pthread_mutex_unlock(&reg_m);
    return NULL;
}

static void *invoker(void *arg)
{
    long id = (long)arg;
    for (int calls = 0; calls < ITER;) {
        pthread_mutex_lock(&reg_m);
        void (*cb)(long) = slot; // NORACE: reg_m held
        pthread_mutex_unlock(&reg_m);
        if (cb) {
            cb(id);
            calls++;
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t r, i1, i2;
    pthread_create(&r, NULL, registrar, NULL);
    pthread_create(&i1, NULL, invoker, (void *)1L);
    pthread_create(&i2, NULL, invoker, (void *)2L);
    pthread_join(r, NULL);
    pthread_join(i1, NULL);
    pthread_join(i2, NULL);
    puts("done");
    return 0;
}
