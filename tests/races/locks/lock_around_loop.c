/* Critical sections around and inside loops. The filler writes `data`
 * holding `m` across a whole loop, the summer reads it holding `m` across
 * its loop: NORACE. `rounds` is incremented by both threads after the
 * loop, once `m` has been released: RACE. */
#include <pthread.h>
#include <stdio.h>

#define N 64
#define ROUNDS 300

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int data[N];
long rounds;

static void *filler(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&m);
        for (int i = 0; i < N; i++)
            data[i] = r + i; // NORACE: m held across the loop
        pthread_mutex_unlock(&m);
        rounds++; // RACE: after the unlock, summer does the same
    }
    return NULL;
}

static void *summer(void *arg)
{
    long s = 0;
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&m);
        for (int i = 0; i < N; i++)
            s += data[i]; // NORACE: m held across the loop
        pthread_mutex_unlock(&m);
        rounds++; // RACE: after the unlock, filler does the same
    }
    return (void *)s;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, filler, NULL);
    pthread_create(&b, NULL, summer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
