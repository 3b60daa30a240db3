/* LOCKSMITH, figure 9: main initialises x before forking two threads running f; each thread reads
 * x and writes it to memory it allocated itself. x is never written after it becomes shared, and
 * the allocated memory never escapes its thread, so there is no race: the sharing analysis and the
 * Down-Fork rule prove it (§3.2). Expected: no warning (exit 0). */
#include <pthread.h>
#include <stdlib.h>

int x;

void *f(void *arg) {
    (void)arg;
    int *p = (int *)malloc(sizeof(int));
    *p = x;
    free(p);
    return 0;
}

int main(void) {
    pthread_t a, b;
    x = 42;
    pthread_create(&a, 0, f, 0);
    pthread_create(&b, 0, f, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
