/* A recursive walk over a shared heap tree without the lock. main builds a
 * tree recursively before the first fork; both workers then call mark(),
 * which recursively writes every node's `marks` with no lock held: RACE.
 * The per-walk result is added to `total` under `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 200

struct node {
    long marks;
    struct node *kid[2];
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct node *root;
long total;

static struct node *build(int depth)
{
    struct node *n = calloc(1, sizeof *n);
    if (depth > 0) {
        n->kid[0] = build(depth - 1);
        n->kid[1] = build(depth - 1);
    }
    return n;
}

static long mark(struct node *n)
{
    if (n == NULL)
        return 0;
    n->marks++; // RACE: both workers recurse over the same nodes, no lock
    return 1 + mark(n->kid[0]) + mark(n->kid[1]);
}

static void *worker(void *arg)
{
    long s = 0;
    (void)arg;
    for (int r = 0; r < ROUNDS; r++)
        s += mark(root);
    pthread_mutex_lock(&m);
    total += s; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    root = build(4);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", total); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
