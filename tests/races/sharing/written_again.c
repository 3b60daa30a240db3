/* Data written before the first fork and only read afterwards, versus data
 * written again after the fork. `threshold` is written by main before any
 * pthread_create and only read by the readers: NORACE. `level` is also
 * initialised before the fork, but main writes it again while the readers
 * read it: RACE on the post-fork write and on the reads. (The pre-fork write
 * of `level` is left unannotated.) */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

int threshold;
int level;

static void *reader(void *arg)
{
    long above = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        if (i > threshold) // NORACE needs=sharing: never written after the fork
            above++;
        above += level; // RACE: main writes level after the fork
    }
    return (void *)above;
}

int main(void)
{
    pthread_t t1, t2;
    threshold = ITER / 3; // NORACE needs=sharing: before the first fork
    level = 1;
    pthread_create(&t1, NULL, reader, NULL);
    pthread_create(&t2, NULL, reader, NULL);
    level = 2; // RACE: the readers read level
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    puts("done");
    return 0;
}
