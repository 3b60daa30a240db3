/* A recursive function that takes and releases the lock at every level.
 * descend(d) adds d to `depth_sum` holding `m` and recurses: NORACE. At the
 * base case it bumps `leaves` with no lock: RACE, both workers reach it. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 500

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long depth_sum;
long leaves;

static void descend(int d)
{
    if (d == 0) {
        leaves++; // RACE: base case, no lock
        return;
    }
    pthread_mutex_lock(&m);
    depth_sum += d; // NORACE: m held at this level
    pthread_mutex_unlock(&m);
    descend(d - 1);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++)
        descend(6);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", depth_sum); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
