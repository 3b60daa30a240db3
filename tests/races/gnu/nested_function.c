/* GNU nested functions. `bump` writes a global; `count` writes a local of the enclosing frame
 * and runs in a thread the enclosing function starts, while the enclosing function writes the
 * same local: the local is shared through the frame.
 * RACE: `shared` is written by `bump` (called by both workers), no lock.
 * RACE: `hits` (a local of `worker`) is written by `count` in the helper thread and by `worker`.
 *   ThreadSanitizer (gcc 12) does not see accesses made through a nested function's frame
 *   pointer, so it misses this race; lost updates show it (the returned count falls short of
 *   2000).
 * NORACE: `guarded` is written by `locked_bump` under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int shared;
int guarded;

static void *worker(void *arg)
{
    (void)arg;
    int hits = 0;
    void bump(void) { shared++; } // RACE: both workers, no lock
    void locked_bump(void)
    {
        pthread_mutex_lock(&lock);
        guarded++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    void *count(void *unused)
    {
        (void)unused;
        for (int i = 0; i < 1000; i++)
            hits++; // RACE: the helper thread and worker both write worker's local
        return NULL;
    }
    pthread_t helper;
    pthread_create(&helper, NULL, count, NULL);
    for (int i = 0; i < 1000; i++) {
        bump();
        locked_bump();
        hits++; // RACE: see count
    }
    pthread_join(helper, NULL);
    return (void *)(long)hits;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", shared, guarded); // NORACE: after the joins
    return 0;
}
