/* One pair of wrappers used at two levels: main starts `parent` through
 * `spawn` and joins it through `wait_for`, and `parent` starts and joins
 * `child` through the same wrappers. As in wrapper_in_thread.c, `order` is
 * written before the child starts and `answer` read after it is joined, so
 * both are race-free; `status` is written by both while the child runs:
 * RACE. But `spawn`'s pthread_create receives both thread functions through
 * its parameter, so for locksmith `parent` may start `parent` again: a cycle
 * of thread starts, around which thread structure is not followed (a
 * parent thread and the child it may start of its own kind run at once):
 * FALSE-ALARM on the `order` and `answer` lines within the threads. Joins
 * are followed around the cycle (each thread joins all it starts before it
 * returns), so main's read after wait_for(p) is ordered: NORACE. */
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
    answer = order * 2; // FALSE-ALARM: order is written before this thread starts, answer read after it is joined; spawn may start parent from parent for locksmith
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t c;
    (void)arg;
    order = 21; // FALSE-ALARM: the child does not exist yet; spawn may start parent from parent for locksmith
    spawn(&c, child);
    for (int i = 0; i < ITER; i++)
        status = -i; // RACE: the child is running
    wait_for(c);
    answer += 1; // FALSE-ALARM: wait_for joined the child; spawn may start parent from parent for locksmith
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
