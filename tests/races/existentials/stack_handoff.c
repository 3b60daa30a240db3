// A pool of buffers kept on a stack, a linked list pushed and popped under one mutex
// (`pool = pool->next` to pop): each user pops a buffer, fills it without a lock and pushes it
// back, and the buffer is its own in between. After its last push each user still marks the
// buffer, which races with main, which later pops every buffer to read it; main's reads of the
// data the users wrote while they owned the buffers do not race, nor does the pop's read of
// `pool->next`, through the head that still points to the popped buffer, with main's `free`.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct buf {
    struct buf *next;
    int data[4];
    int mark;
};

static pthread_mutex_t pool_m = PTHREAD_MUTEX_INITIALIZER;
static struct buf *pool;

static struct buf *pop(void) {
    pthread_mutex_lock(&pool_m);
    struct buf *b = pool;
    if (b != NULL)
        pool = pool->next; // NORACE needs=existentials
    pthread_mutex_unlock(&pool_m);
    return b;
}

static void push(struct buf *b) {
    pthread_mutex_lock(&pool_m);
    b->next = pool;
    pool = b;
    pthread_mutex_unlock(&pool_m);
}

static void *user(void *arg) {
    int id = (int)(long)arg;
    struct buf *b = NULL;
    for (int round = 0; round < 20; round++) {
        b = pop();
        if (b == NULL)
            continue;
        for (int i = 0; i < 4; i++)
            b->data[i] = id + round + i; // NORACE needs=existentials
        push(b);
    }
    if (b != NULL)
        b->mark = id; // RACE
    return arg;
}

int main(void) {
    for (int i = 0; i < 2; i++) {
        struct buf *b = calloc(1, sizeof *b);
        push(b);
    }
    pthread_t t[2];
    pthread_create(&t[0], NULL, user, NULL);
    pthread_create(&t[1], NULL, user, (void *)1L);
    usleep(20000);
    long sum = 0;
    struct buf *b;
    while ((b = pop()) != NULL) {
        sum += b->data[0]; // NORACE needs=existentials
        sum += b->mark; // RACE
        free(b);
    }
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    printf("%ld\n", sum);
    return 0;
}
