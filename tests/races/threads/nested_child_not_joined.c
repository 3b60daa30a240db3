/* A parent that does not wait for its child. `parent` writes `status`
 * after starting `child`, before joining it: RACE with the child's writes
 * (see nested_create_join_ordered.c for the ordered accesses). `helper`,
 * started by the parent and never joined, updates `tally`; main reads
 * `tally` after joining the parent, while the helper may still run: RACE on
 * both lines. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ITER 20000

long status;
long tally;

static void *child(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        status = i; // RACE: the parent writes status before joining this thread
    return NULL;
}

static void *helper(void *arg)
{
    (void)arg;
    for (int i = 0; i < 200000; i++)
        tally++; // RACE: main reads tally while this thread may run
    return NULL;
}

static void *parent(void *arg)
{
    pthread_t c, h;
    (void)arg;
    pthread_create(&c, NULL, child, NULL);
    pthread_create(&h, NULL, helper, NULL);
    pthread_detach(h);
    for (int i = 0; i < ITER; i++)
        status = -i; // RACE: the child is running
    pthread_join(c, NULL);
    return NULL;
}

int main(void)
{
    pthread_t p;
    pthread_create(&p, NULL, parent, NULL);
    pthread_join(p, NULL);
    printf("%ld\n", tally); // RACE: the helper was never joined
    usleep(100000);
    return 0;
}
