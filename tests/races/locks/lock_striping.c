/* Lock striping: the element of `bucket_lock` at an index guards the
 * elements of `hits` and `bytes` at the same index (a stable local index, or
 * the same constant), so those accesses are NORACE although the lock array
 * stands for many locks. `hits` is also written under the lock of the next
 * stripe (RACE there and at the correctly locked accesses it meets), and
 * `misses[i]` is updated after the unlock (RACE). */
#include <pthread.h>

#define STRIPES 4

pthread_mutex_t bucket_lock[STRIPES];
long hits[STRIPES];
long bytes[STRIPES];
long misses[STRIPES];

static void *worker(void *arg)
{
    long seed = (long)arg;
    for (int k = 0; k < 4000; k++) {
        int i = (int)((k * 7 + seed) % STRIPES);
        pthread_mutex_lock(&bucket_lock[i]);
        bytes[i] += k; // NORACE: bucket_lock[i] guards bytes[i]
        hits[i]++; // RACE: the wrong-stripe write below meets it
        pthread_mutex_unlock(&bucket_lock[i]);
        misses[i]++; // RACE: after the unlock
        int j = (i + 1) % STRIPES;
        pthread_mutex_lock(&bucket_lock[j]);
        hits[i]--; // RACE: holds the lock of stripe j, not i
        pthread_mutex_unlock(&bucket_lock[j]);
    }
    pthread_mutex_lock(&bucket_lock[0]);
    bytes[0] = 0; // NORACE: the same stripe as bytes[i] with i == 0
    pthread_mutex_unlock(&bucket_lock[0]);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_init(&bucket_lock[i], NULL);
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return (int)(hits[0] + bytes[1] + misses[2]) & 1;
}
