/* A thread id kept in an element of a local array by a constant index (`t[1]`) is joined by
 * `pthread_join(t[1])` only if nothing else can write that element. Here the array's address
 * is handed to `restart`, which creates another thread into `t[1]`: main's join then ends the
 * quick thread, not the slow one, and main's read of `slow_total` races with the slow thread
 * (RACE; missed before: an element by a constant index of an escaping array was trusted,
 * where one by a variable index never was). `quick_total` is read after its thread was joined, but
 * locksmith cannot tell which create `t[1]` holds at the join (FALSE-ALARM). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static long slow_total, quick_total;

static void *slow(void *arg)
{
    usleep(20000);
    slow_total = 1; // RACE: main reads it before joining this thread
    return arg;
}

static void *quick(void *arg)
{
    quick_total = 1; // FALSE-ALARM: joined through t[1] before main reads it
    return arg;
}

static void restart(pthread_t *all)
{
    if (pthread_create(&all[1], NULL, quick, NULL) != 0)
        perror("pthread_create");
}

int main(void)
{
    pthread_t t[2];
    if (pthread_create(&t[1], NULL, slow, NULL) != 0)
        return 1;
    pthread_t first = t[1];
    restart(t);
    pthread_join(t[1], NULL);
    printf("%ld %ld\n", slow_total, quick_total); // RACE: the slow thread may still run
    pthread_join(first, NULL);
    return 0;
}
