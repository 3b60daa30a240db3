/* Each consumer is handed its own heap record (kept by `main` in a local array of pointers)
 * and fills it, a member through `strcpy`. After joining a consumer, `main` prints the
 * record's members through `printf`'s variadic arguments and frees it: the record is `main`'s
 * again, and a library call's read of a variadic argument is inside that ownership as a
 * direct read is: NORACE (the printf was reported). Every consumer also counts into the one
 * global `seen`, and `main` prints it while they may still run: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONSUMERS 3

struct record {
    char tag[8];
    long sum;
};

static long seen;

static void *consumer(void *arg)
{
    struct record *r = arg;
    strcpy(r->tag, "cons"); // NORACE needs=existentials
    for (int v = 0; v < 100; v++)
        r->sum += v; // NORACE needs=existentials
    seen++; // RACE
    return NULL;
}

int main(void)
{
    pthread_t threads[CONSUMERS];
    struct record *records[CONSUMERS];
    for (int i = 0; i < CONSUMERS; i++) {
        records[i] = calloc(1, sizeof *records[i]);
        if (records[i] == NULL)
            return 1;
        pthread_create(&threads[i], NULL, consumer, records[i]);
    }
    printf("%ld\n", seen); // RACE
    for (int i = 0; i < CONSUMERS; i++) {
        pthread_join(threads[i], NULL);
        printf("%s %ld\n", records[i]->tag, records[i]->sum); // NORACE needs=existentials
        free(records[i]);
    }
    return 0;
}
