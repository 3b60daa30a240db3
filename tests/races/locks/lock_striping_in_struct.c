/* Lock striping inside a global struct: `table.lock[i]` guards
 * `table.count[i]` and the separate array `seen[i]` at the same index
 * (NORACE), but not `table.count` at another index, nor `table.total`, which
 * is written under whichever stripe lock is held (RACE: two stripes are two
 * locks). */
#include <pthread.h>

#define SLOTS 4

struct counters {
    pthread_mutex_t lock[SLOTS];
    long count[SLOTS];
    long total;
} table;
long seen[SLOTS];

static void *worker(void *arg)
{
    long seed = (long)arg;
    for (int k = 0; k < 4000; k++) {
        int i = (int)((k * 2 + seed) % SLOTS);
        pthread_mutex_lock(&table.lock[i]);
        table.count[i]++; // NORACE: table.lock[i] guards table.count[i]
        seen[i] = k; // NORACE: and seen[i]
        table.total++; // RACE: another stripe's lock may be held by the other thread
        pthread_mutex_unlock(&table.lock[i]);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < SLOTS; i++)
        pthread_mutex_init(&table.lock[i], NULL);
    /* One thread takes the even stripes, the other the odd ones. */
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return (int)(table.total + seen[0]) & 1;
}
