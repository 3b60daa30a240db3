/* Wrappers used by a thread that main starts: `parent` writes `order`
 * before `spawn` starts `child` with the parent's thread id, and reads
 * `answer` after `wait_for` has joined it; the child reads `order` and
 * writes `answer`: NORACE, ordered inside the parent through both wrappers.
 * The parent writes `status` between the spawn and the wait, and the child
 * writes it too: RACE. (wrapper_shared_by_levels.c has main start the parent
 * through the same wrappers.) */
#include <pthread.h>
#include <stdio.h>

#define ITER 20000

long order;
long answer;
long status;

static int spawn(pthread_t *t, void *(*fn)(void *))
{
    return pthread_create(t, NULL, fn, NULL);
}

static void wait_for(pthread_t t)
{
    if (pthread_join(t, NULL) != 0)
        perror("pthread_join");
}

static void *child(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        status = i; // RACE: the parent writes status before joining this thread
    answer = order * 2; // NORACE needs=sharing: order is written before this thread starts, answer read after it is joined
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t c;
    (void)arg;
    order = 21; // NORACE needs=sharing: the child does not exist yet
    spawn(&c, child);
    for (int i = 0; i < ITER; i++)
        status = -i; // RACE: the child is running
    wait_for(c);
    answer += 1; // NORACE needs=sharing,joins: wait_for joined the child
    return NULL;
}

int main(void)
{
    pthread_t p;
    pthread_create(&p, NULL, parent, NULL);
    pthread_join(p, NULL);
    printf("%ld\n", answer); // NORACE needs=sharing,joins: every thread was joined
    return 0;
}
