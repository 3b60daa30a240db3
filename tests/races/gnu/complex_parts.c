/* GNU C's `__real__` and `__imag__` name a part of a complex number; locksmith reads each as an
 * access to the whole number (one location).
 * RACE: both workers write the real part of `total`, no lock.
 * NORACE: the imaginary part of `phase` is written holding `m`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static _Complex double total;
static _Complex double phase;

static void *worker(void *arg)
{
    (void)arg;
    __real__ total += 1.0; // RACE: both workers, no lock
    pthread_mutex_lock(&m);
    __imag__ phase = __imag__ phase + 0.5; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%f %f\n", __real__ total, __imag__ phase);
    return 0;
}
