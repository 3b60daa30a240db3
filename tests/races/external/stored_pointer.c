/* Unknown code keeps a pointer it is given and hands it back later: the
 * object becomes external memory. main stores `&g` in the library, the
 * worker gets it back and bumps it while main bumps `g` directly, neither
 * holding a lock: RACE on both. `h` is never handed to the library and is
 * bumped only by main: not shared. */
#include <pthread.h>
#include <stdio.h>

unsigned g;
unsigned h;

void lib_store(void *p);
void *lib_load(void);

#ifndef __LOCKSMITH__
static void *lib_slot;
void lib_store(void *p)
{
    lib_slot = p;
}
void *lib_load(void)
{
    return lib_slot;
}
#endif

static void *worker(void *arg)
{
    unsigned *p = lib_load();
    (*p)++; // RACE: p is &g, which main bumps too
    return arg;
}

int main(void)
{
    pthread_t t;
    lib_store(&g);
    pthread_create(&t, NULL, worker, NULL);
    g++; // RACE: the worker bumps it through the library's pointer
    h++;
    pthread_join(t, NULL);
    printf("%u %u\n", g, h);
    return 0;
}
