/* The paper's figure 9. main writes `x` before forking two copies of f;
 * afterwards `x` is only read: NORACE (sharing: main before the first fork;
 * read-only after). Each copy of f mallocs a buffer at the same syntactic
 * site and writes it, but the pointer never escapes f: the abstract location
 * is the same for both threads. Down-Fork proves it thread-local, and so
 * does uniqueness (p is fresh and never published): only with both off is
 * it reported, NORACE needs=down-fork+uniqueness. `done` is written by both copies with no lock:
 * RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int x;
int done;

static void *f(void *arg)
{
    int *p = malloc(2 * sizeof *p);
    (void)arg;
    p[0] = x; // NORACE needs=sharing,down-fork+uniqueness: x read-only, p thread-local
    p[1] = p[0] + 1; // NORACE needs=down-fork+uniqueness: p never leaves f
    int v = p[1]; // NORACE needs=down-fork+uniqueness: p never leaves f
    free(p);
    done += v; // RACE: both copies of f, no lock
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    x = 42; // NORACE needs=sharing: before the first fork
    pthread_create(&t1, NULL, f, NULL);
    pthread_create(&t2, NULL, f, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    puts("done");
    return 0;
}
