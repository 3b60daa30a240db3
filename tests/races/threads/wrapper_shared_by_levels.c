/* One pair of wrappers used at two levels: main starts `parent` through
 * `spawn` and joins it through `wait_for`, and `parent` starts and joins
 * `child` through the same wrappers. As in wrapper_in_thread.c, `order` is
 * written before the child starts and `answer` read after it is joined, so
 * both are race-free; `status` is written by both while the child runs:
 * RACE. `spawn`'s pthread_create receives both thread functions through its
 * parameter; each list of functions its callers pass gets its own copy of
 * `spawn` (a fork site of its own), so `parent` does not start `parent`
 * again and thread structure is followed: NORACE on `order` and `answer`
 * (reported, as a cycle of thread starts, when one `spawn` started both). */
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
    answer = order * 2; // NORACE needs=context: order is written before this thread starts, answer read after it is joined
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t c;
    (void)arg;
    order = 21; // NORACE needs=context: the child does not exist yet
    spawn(&c, child);
    for (int i = 0; i < ITER; i++)
        status = -i; // RACE: the child is running
    wait_for(c);
    answer += 1; // NORACE needs=context: wait_for joined the child
    return NULL;
}

int main(void)
{
    pthread_t p;
    spawn(&p, parent);
    wait_for(p);
    printf("%ld\n", answer); // NORACE needs=joins: every thread was joined, whatever spawn may start
    return 0;
}
