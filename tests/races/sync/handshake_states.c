/* Hand-shakes through the states of a state machine: the loader moves `state` from IDLE to
 * LOADING, fills the table, then moves it to READY, each store holding `m`, and nothing else
 * stores anything in `state` but `main`'s DONE once both threads are joined. READY is stored
 * by one statement, so a reader that saw READY holding `m` runs after everything the loader
 * did before that store: its reads of the table are ordered after the writes (NORACE; they
 * were reported while only a flag of 0 and one other value was a hand-shake). The monitor
 * waits for LOADING, stored before the table is filled: its read races (RACE). What the
 * loader does after READY is ordered with nothing (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

enum { IDLE, LOADING, READY, DONE };

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int state;
static long table[16], late;

static void *loader(void *arg)
{
    pthread_mutex_lock(&m);
    state = LOADING;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
    usleep(20000); /* the monitor reads before the table is filled */
    for (int i = 0; i < 16; i++)
        table[i] = i; // RACE: the monitor waits for LOADING only
    pthread_mutex_lock(&m);
    state = READY;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
    late = 1; // RACE: after READY
    return arg;
}

static void *reader(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    while (state != READY)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    long sum = 0;
    for (int i = 0; i < 16; i++)
        sum += table[i]; // NORACE needs=sharing: READY is stored once the table is full
    return (void *)(sum + late); // RACE: the loader goes on after READY
}

static void *monitor(void *arg)
{
    pthread_mutex_lock(&m);
    while (state == IDLE)
        pthread_cond_wait(&changed, &m);
    pthread_mutex_unlock(&m);
    printf("%ld\n", table[15]); // RACE: LOADING comes before the table is filled
    return arg;
}

int main(void)
{
    pthread_t l, r, w;
    pthread_create(&l, NULL, loader, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, monitor, NULL);
    pthread_join(r, NULL);
    pthread_join(w, NULL);
    pthread_join(l, NULL);
    state = DONE;
    printf("%ld %d\n", table[0], state);
    return 0;
}
