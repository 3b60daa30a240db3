/* Mathematical functions compute from their arguments alone (errno, which they may set, is
 * per thread): two threads calling sqrt, pow, floor and frexp share nothing through them, so
 * those calls are NORACE, and so is frexp's store into each thread's own local. The threads
 * add their results to `total` without a lock: RACE. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>

static double total;

static void *worker(void *arg)
{
    double x = (double)(long)arg + 2.0;
    int exponent;
    double v = sqrt(x) + pow(x, 1.5) + floor(x / 3.0); // NORACE: pure functions
    double m = frexp(v, &exponent); // NORACE: the exponent is this thread's local
    total += m * exponent; // RACE: both threads, no lock
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%f\n", total);
    return 0;
}
