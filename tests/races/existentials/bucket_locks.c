// A hash table with a lock per bucket: the buckets are the elements of a global array, so their
// locks are one non-linear label. Locking tab[h].lock and then using tab[h] with the same local
// index is an unpack of that bucket.
#include <pthread.h>
#include <stdlib.h>

#define NBUCKETS 16

struct entry {
    int key;
    struct entry *next;
};

struct bucket {
    pthread_mutex_t lock;
    struct entry *chain;
    int count;
};

static struct bucket tab[NBUCKETS];

static void insert(int key) {
    unsigned h = (unsigned)key % NBUCKETS;
    struct entry *e = malloc(sizeof *e);
    e->key = key; // NORACE: not yet published
    pthread_mutex_lock(&tab[h].lock);
    e->next = tab[h].chain; // NORACE needs=existentials
    tab[h].chain = e; // NORACE needs=existentials
    tab[h].count++; // RACE: peek reads another bucket's count without its lock
    pthread_mutex_unlock(&tab[h].lock);
}

static int peek(int key) {
    unsigned h = (unsigned)key % NBUCKETS;
    pthread_mutex_lock(&tab[h].lock);
    h = (h + 1) % NBUCKETS;
    int n = tab[h].count; // RACE: h changed after the lock was taken: another bucket
    pthread_mutex_unlock(&tab[(h + NBUCKETS - 1) % NBUCKETS].lock);
    return n;
}

static void *worker(void *arg) {
    int base = *(int *)arg;
    for (int i = 0; i < 32; i++)
        insert(base + i);
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    return (void *)(long)peek(3);
}

int main(void) {
    for (int i = 0; i < NBUCKETS; i++)
        pthread_mutex_init(&tab[i].lock, NULL);
    pthread_t a, b, c;
    int zero = 0, half = 32;
    pthread_create(&a, NULL, worker, &zero);
    pthread_create(&b, NULL, worker, &half);
    pthread_create(&c, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    return 0;
}
