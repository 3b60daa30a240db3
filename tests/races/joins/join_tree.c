/* A tree of workers: node i starts nodes 2i+1 and 2i+2 when they exist (each test on a flag
 * set once) and joins them before it returns; main starts and joins only the root. So every
 * node has ended when the root's join returns, and main's read of `total` after it is
 * ordered with all of them (NORACE; before, a thread that starts its own kind was taken to
 * leave its children running). A second tree, `sprout`, detaches its right child instead of
 * joining it: that subtree may still run after the root is joined, so main's updates of
 * `sprouted` race with it (RACE), as each node's do with its children's (a right child
 * sleeps first so that its writes come after main's, which TSan then sees). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 7

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long total, sprouted;

static void *node(void *arg)
{
    long i = (long)arg;
    pthread_t l, r;
    int has_l = 2 * i + 1 < N, has_r = 2 * i + 2 < N;
    if (has_l)
        pthread_create(&l, NULL, node, (void *)(2 * i + 1));
    if (has_r)
        pthread_create(&r, NULL, node, (void *)(2 * i + 2));
    pthread_mutex_lock(&m);
    total += i; // NORACE needs=joins: under m, and main reads it after the root is joined
    pthread_mutex_unlock(&m);
    if (has_l)
        pthread_join(l, NULL);
    if (has_r)
        pthread_join(r, NULL);
    return NULL;
}

static void *sprout(void *arg)
{
    long i = (long)arg;
    pthread_t l, r;
    int has_l = 2 * i + 1 < N, has_r = 2 * i + 2 < N;
    if (has_l)
        pthread_create(&l, NULL, sprout, (void *)(2 * i + 1));
    if (has_r) {
        pthread_create(&r, NULL, sprout, (void *)(2 * i + 2));
        pthread_detach(r);
    }
    if (i > 0 && i % 2 == 0)
        usleep(20000); /* a right child writes late, after main's updates */
    sprouted++; // RACE: parents, children and main at once
    if (has_l)
        pthread_join(l, NULL);
    return NULL;
}

int main(void)
{
    pthread_t root, sprout_root;
    pthread_create(&root, NULL, node, (void *)0);
    pthread_join(root, NULL);
    printf("%ld\n", total); // NORACE needs=joins: every node ended before the root's join returned
    pthread_create(&sprout_root, NULL, sprout, (void *)0);
    pthread_join(sprout_root, NULL);
    sprouted++; // RACE: the right subtree may still run
    printf("%ld\n", sprouted);
    usleep(100000); /* the detached subtree finishes before the process exits */
    return 0;
}
