// A linked list whose nodes each carry their own lock. The nodes are allocated in a loop, so
// their locks are one non-linear label: only the inferred unpack (lock a node, use that node)
// shows that each node's counters are protected by the node's own lock.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct node {
    pthread_mutex_t lock;
    int hits;
    long bytes;
    int stamp;
    int closed;
    struct node *next;
};

static struct node *head;

static void *worker(void *arg) {
    long n = *(long *)arg;
    for (struct node *p = head; p != NULL; p = p->next) {
        pthread_mutex_lock(&p->lock);
        p->hits++; // NORACE needs=existentials
        p->bytes += n; // NORACE needs=existentials
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

static void *wrong_node(void *arg) {
    (void)arg;
    struct node *a = head;
    struct node *b = head->next;
    pthread_mutex_lock(&a->lock);
    b->stamp = 1; // RACE: b's data under a's lock
    pthread_mutex_unlock(&a->lock);
    usleep(20000);
    pthread_mutex_lock(&a->lock);
    a->closed = 1; // RACE: races with the write after the unlock below
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

static void *right_node(void *arg) {
    (void)arg;
    struct node *b = head->next;
    pthread_mutex_lock(&b->lock);
    b->stamp = 2; // RACE: wrong_node writes it under another node's lock
    pthread_mutex_unlock(&b->lock);
    struct node *p = head;
    pthread_mutex_lock(&p->lock);
    pthread_mutex_unlock(&p->lock);
    p->closed = 2; // RACE: written after the unlock
    return NULL;
}

int main(void) {
    for (int i = 0; i < 4; i++) {
        struct node *n = malloc(sizeof *n);
        pthread_mutex_init(&n->lock, NULL);
        n->hits = 0; // NORACE: not yet published
        n->bytes = 0; // NORACE: not yet published
        n->stamp = 0; // NORACE: not yet published
        n->closed = 0; // NORACE: not yet published
        n->next = head;
        head = n;
    }
    pthread_t t[4];
    static long one = 1, two = 2;
    pthread_create(&t[0], NULL, worker, &one);
    pthread_create(&t[1], NULL, worker, &two);
    pthread_create(&t[2], NULL, wrong_node, NULL);
    pthread_create(&t[3], NULL, right_node, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    return 0;
}
