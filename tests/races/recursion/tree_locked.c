/* A recursive walk over a shared tree while the caller holds the lock.
 * main builds a 15-node tree in the global `nodes` array before the first
 * fork. Each worker takes `tree_m` and then calls visit(root), which
 * recursively bumps every node's `visits`: NORACE (tree_m held by the caller
 * for the whole recursion). `walks` is incremented after the unlock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define NN 15
#define ROUNDS 300

struct node {
    int key;
    long visits;
    struct node *left, *right;
};

pthread_mutex_t tree_m = PTHREAD_MUTEX_INITIALIZER;
struct node nodes[NN];
struct node *root;
long walks;

static long visit(struct node *n)
{
    if (n == NULL)
        return 0;
    n->visits++; // NORACE: tree_m held by the caller
    return n->key + visit(n->left) + visit(n->right);
}

static void *worker(void *arg)
{
    long s = 0;
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&tree_m);
        s += visit(root);
        pthread_mutex_unlock(&tree_m);
        walks++; // RACE: after the unlock, both workers
    }
    return (void *)s;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < NN; i++) {
        nodes[i].key = i;
        nodes[i].left = 2 * i + 1 < NN ? &nodes[2 * i + 1] : NULL;
        nodes[i].right = 2 * i + 2 < NN ? &nodes[2 * i + 2] : NULL;
    }
    root = &nodes[0];
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
