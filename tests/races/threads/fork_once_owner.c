/* A thread forked once owns a global after the fork. main writes `owned`
 * before the first pthread_create and never touches it again; the single
 * `owner` thread reads and writes it afterwards without a lock. No two
 * threads ever access it concurrently: NORACE (continuation effects: main's
 * continuation after the fork does not access `owned`). `flag` is written
 * by the owner and read by main after the fork, no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

long owned;
int flag;

static void *owner(void *arg)
{
    (void)arg;
    flag = 1; // RACE: main reads flag concurrently
    for (int i = 0; i < ITER; i++)
        owned += i; // NORACE needs=sharing: only this thread after the fork
    owned *= 2; // NORACE needs=sharing: only this thread after the fork
    return NULL;
}

int main(void)
{
    pthread_t t;
    long seen = 0;
    owned = 7; // NORACE needs=sharing: before the first fork
    pthread_create(&t, NULL, owner, NULL);
    seen += flag; // RACE: the owner writes flag
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
