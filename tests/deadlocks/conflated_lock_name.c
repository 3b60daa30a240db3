/* The pool's locks are reached through a pointer made from an integer (`pool_addr`), and that
 * memory is mixed with the C library's `optarg` through `slot`: the analysis conflates them, so
 * `a` and `b` are one lock of conflated memory. The workers take `a` then `b`, and `b` then
 * `a`: a deadlock, reported on a lock in conflated memory, never on one named `optarg`, which
 * holds no lock. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

struct pool {
    pthread_mutex_t a;
    pthread_mutex_t b;
    int jobs;
};

static uintptr_t pool_addr;

static void *worker(void *arg)
{
    struct pool *p = (struct pool *)pool_addr;
    char **slot = arg ? &optarg : (char **)pool_addr;
    (void)slot;
    pthread_mutex_lock(&p->a);
    pthread_mutex_lock(&p->b); // DEADLOCK: a then b
    p->jobs++;
    pthread_mutex_unlock(&p->b);
    pthread_mutex_unlock(&p->a);
    pthread_mutex_lock(&p->b);
    pthread_mutex_lock(&p->a); // DEADLOCK: b then a
    p->jobs--;
    pthread_mutex_unlock(&p->a);
    pthread_mutex_unlock(&p->b);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t[2];
    getopt(argc, argv, "x:");
    struct pool *p = malloc(sizeof *p);
    if (!p)
        return 1;
    pthread_mutex_init(&p->a, NULL);
    pthread_mutex_init(&p->b, NULL);
    pool_addr = (uintptr_t)p;
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, argv);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
