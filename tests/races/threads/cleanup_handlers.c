/* Cleanup handlers (`pthread_cleanup_push`/`pop`, which glibc expands into calls of its internal
 * `__sigsetjmp_cancel`, `__pthread_register_cancel`, `__pthread_unregister_cancel` and
 * `__pthread_unwind_next` on a buffer local to the thread). Each worker pushes a handler that
 * releases its own scratch block and counts the release in a shared counter without a lock:
 * RACE. The scratch block is the worker's own (allocated by it, handed to nobody but its
 * handler): NORACE. Before, the four internal functions were code locksmith cannot see, and
 * each push and pop in the two workers was reported as a race on that code's state: NORACE on
 * those lines. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 1000

static long released;

static void release(void *arg)
{
    char *scratch = arg;
    scratch[0] = 0; // NORACE
    free(scratch);
    released++; // RACE
}

static void *worker(void *arg)
{
    char *scratch = malloc(64);
    if (scratch == NULL)
        return NULL;
    pthread_cleanup_push(release, scratch); // NORACE
    for (int i = 0; i < ITER; i++)
        scratch[i % 64] = (char)i; // NORACE
    pthread_cleanup_pop(1); // NORACE
    return arg;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld\n", released);
    return 0;
}
