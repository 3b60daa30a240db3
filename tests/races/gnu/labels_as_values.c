/* GNU labels as values and computed `goto`: the dispatch table of a small interpreter. The
 * racy increment is reached only through `goto *`, so the flow-sensitive analysis must give the
 * computed goto every address-taken label as a successor.
 * RACE: `shared` is written at label `inc`, reached by `goto *ops[...]`, by both workers.
 * NORACE: `guarded` is written at label `locked_inc`, which runs with `lock` held. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int shared;
int guarded;
static const int program[] = {0, 1, 2};

static void *worker(void *arg)
{
    (void)arg;
    static void *const ops[] = {&&inc, &&locked_inc, &&done};
    for (int round = 0; round < 1000; round++) {
        int pc = 0;
    next:
        goto *ops[program[pc++]];
    inc:
        shared++; // RACE: both workers, no lock
        goto next;
    locked_inc:
        pthread_mutex_lock(&lock);
        guarded++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
        goto next;
    done:;
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", shared, guarded); // NORACE: after the joins
    return 0;
}
