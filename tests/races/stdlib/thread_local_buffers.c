/* A thread-local buffer (`__thread`) handed by its name to library functions (`snprintf`,
 * `strcpy`, `memset`, `strlen`) is the calling thread's own copy: those calls run in that
 * thread and touch only its copy: NORACE (each was reported: the buffer's address is taken,
 * and a library function's access through it counted as anybody's). Both workers copy their
 * buffer into the one global `last`: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static __thread char scratch[32];
static __thread char line[64];
static char last[64];

static void *worker(void *arg)
{
    long id = (long)arg;
    memset(scratch, 0, sizeof scratch); // NORACE
    snprintf(scratch, sizeof scratch, "worker %ld", id); // NORACE
    strcpy(line, scratch); // NORACE
    strcat(line, " done"); // NORACE
    strcpy(last, line); // RACE
    return (void *)strlen(line); // NORACE
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%s\n", last);
    return 0;
}
