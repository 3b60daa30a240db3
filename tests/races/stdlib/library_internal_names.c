/* glibc's inline getline calls the library's own name, __getdelim, in code preprocessed while
 * optimising (merged programs are), and old servers size their descriptor tables with
 * getdtablesize. Each worker reads lines from its own stream into its own buffer: NORACE on
 * those calls. Both count the lines they read in one global without a lock: RACE. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long lines;

static void *worker(void *arg)
{
    char *line = NULL;
    size_t size = 0;
    long slots = getdtablesize(); // NORACE
    FILE *in = fopen("/proc/self/status", "r");
    if (in == NULL)
        return NULL;
    while (__getdelim(&line, &size, '\n', in) > 0) // NORACE
        lines += slots > 0; // RACE
    fclose(in);
    free(line);
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", lines);
    return 0;
}
