/* Unknown code keeps state of its own: two threads calling `lib_tick`
 * without a common lock race on it: RACE at both calls (TSan reports the
 * access inside the library, line 16, called from the two lines). */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t lib_m = PTHREAD_MUTEX_INITIALIZER;

void lib_tick(void);
unsigned lib_count(void);

#ifndef __LOCKSMITH__
static unsigned lib_ticks;
void lib_tick(void)
{
    lib_ticks++;
}
unsigned lib_count(void)
{
    return lib_ticks;
}
#endif

static void *worker(void *arg)
{
    lib_tick(); // RACE: main calls it too, no lock
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    lib_tick(); // RACE: the worker calls it too, no lock
    pthread_join(t, NULL);
    pthread_mutex_lock(&lib_m);
    printf("%u\n", lib_count());
    pthread_mutex_unlock(&lib_m);
    return 0;
}
