/* The extra types of gcc and glibc's headers: `_Float32`, `_Float64`, `_Float32x`, `_Float64x`,
 * `_Float128`, `__float128`, `__int128`, `unsigned __int128` (gcc 12 has no `__bf16` in C).
 * RACE: both workers add to `wide` and `quad` without a lock.
 * NORACE: `total` is updated under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
_Float32 f32;
_Float64 f64;
_Float32x f32x;
_Float64x f64x;
_Float128 f128;
__float128 quad;
__int128 wide;
unsigned __int128 total;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        wide += 1; // RACE: no lock
        quad += 1; // RACE: no lock
        pthread_mutex_lock(&lock);
        total += (unsigned __int128)(f32 + f64 + f32x + f64x + (double)f128) + 1; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", (int)wide, (int)total); // NORACE: after the joins
    return 0;
}
