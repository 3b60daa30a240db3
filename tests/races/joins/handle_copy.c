/* A thread library's handles joined through a copy: `k = b; finish(k)` joins the thread `b`
 * names, whose handle the copy holds, so main's update of what that thread wrote is ordered
 * (NORACE; reported before). The thread of `a` is still running there, and its counter races
 * (RACE) until `a` is finished too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
    pthread_t id;
};

static long a_count, b_count;

static void *count_a(void *arg)
{
    for (int i = 0; i < 1000; i++)
        a_count++; // RACE: `a` is finished only after main's update
    return arg;
}

static void *count_b(void *arg)
{
    b_count++; // NORACE needs=joins: joined through the copy before main's update
    return arg;
}

static struct task *start(void *(*routine)(void *))
{
    struct task *t = malloc(sizeof *t);
    if (t == NULL)
        return NULL;
    pthread_create(&t->id, NULL, routine, NULL);
    return t;
}

static void finish(struct task *t)
{
    pthread_join(t->id, NULL);
    free(t);
}

int main(void)
{
    struct task *a = start(count_a);
    struct task *b = start(count_b);
    struct task *k = b;
    finish(k);
    b_count = 0; // NORACE needs=joins: the thread of `b` was joined through `k`
    a_count = 0; // RACE: the thread of `a` still runs
    finish(a);
    printf("%ld %ld\n", a_count, b_count);
    return 0;
}
