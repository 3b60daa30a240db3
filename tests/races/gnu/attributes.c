/* GNU attributes where gcc allows them: on a statement (`fallthrough`), after a label's colon,
 * and between `struct` and its tag.
 * RACE: `rec.count` (a packed struct) and `shared` are written by both workers, no lock.
 * NORACE: `guarded` is written under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct __attribute__((packed)) record {
    char tag;
    int count;
} rec;
int shared;
int guarded;

static void *worker(void *arg)
{
    long k = (long)arg;
    for (int i = 0; i < 1000; i++) {
        switch (k) {
        case 0:
            rec.count++; // RACE: no lock
            __attribute__((fallthrough));
        default:
            shared++; // RACE: no lock
        }
        goto locked;
    locked: __attribute__((unused));
        pthread_mutex_lock(&lock);
        guarded++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)0L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d %d\n", rec.count, shared, guarded); // NORACE: after the joins
    return 0;
}
