/* Adjacent bit-fields form one memory location (C11 3.14): updating two
 * different bit-fields of the same unit from two threads is a data race
 * even though each field has "its own" lock. `flags.ready` is written under
 * A and `flags.busy` under B: RACE on both. `counts.hi` and `counts.lo` are
 * ordinary (non-bit-field) members with separate locks: NORACE needs=field. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct flagbits {
    unsigned ready : 1;
    unsigned busy : 1;
};

struct twocounts {
    long hi;
    long lo;
};

pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
struct flagbits flags;
struct twocounts counts;

static void *left(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&A);
        flags.ready = i & 1; // RACE: same memory location as flags.busy (B)
        counts.hi++; // NORACE needs=field: hi always under A
        pthread_mutex_unlock(&A);
    }
    return NULL;
}

static void *right(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&B);
        flags.busy = !(i & 1); // RACE: same memory location as flags.ready (A)
        counts.lo++; // NORACE needs=field: lo always under B
        pthread_mutex_unlock(&B);
    }
    return NULL;
}

int main(void)
{
    pthread_t l, r;
    pthread_create(&l, NULL, left, NULL);
    pthread_create(&r, NULL, right, NULL);
    pthread_join(l, NULL);
    pthread_join(r, NULL);
    puts("done");
    return 0;
}
