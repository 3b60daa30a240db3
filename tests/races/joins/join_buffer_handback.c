/* A buffer handed to a single worker and taken back after pthread_join.
 * main allocates `buf` and starts one worker that fills it without a lock;
 * main reads the buffer only after joining that worker: NORACE needs=joins
 * on the fill and on main's reads. `progress` is written by the worker and
 * read by main before the join: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024

int progress;

static void *filler(void *arg)
{
    int *buf = arg;
    progress = 1; // RACE: main polls progress before joining
    for (int i = 0; i < N; i++)
        buf[i] = i * i; // NORACE needs=joins: main reads buf after the join
    return NULL;
}

int main(void)
{
    pthread_t t;
    long s = 0;
    int *buf = malloc(N * sizeof *buf);
    pthread_create(&t, NULL, filler, buf);
    s += progress; // RACE: the filler writes progress
    pthread_join(t, NULL);
    for (int i = 0; i < N; i++)
        s += buf[i]; // NORACE needs=joins: the filler was joined
    printf("%ld\n", s);
    free(buf);
    return 0;
}
