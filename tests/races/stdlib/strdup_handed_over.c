/* Copies made by strdup and handed to another thread. strdup fills its copy
 * before it returns it, when no other thread can reach it yet, so the writes
 * inside strdup never race: the producer hands `first` over in `slot` under
 * `m`, and the consumer's unlocked read of the copy it took is ordered after
 * them: NORACE. The second copy is put in `board` without the lock and then
 * changed: the consumer's read of it races with that change, and both
 * threads use `board` itself without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char *slot;
static char *volatile board;

static void *producer(void *arg)
{
    char *first = strdup("first"); // NORACE needs=uniqueness: not yet handed over
    char *second = strdup("second"); // NORACE needs=uniqueness: not yet handed over
    pthread_mutex_lock(&m);
    slot = first;
    pthread_mutex_unlock(&m);
    board = second; // RACE: the consumer reads board
    second[0] = 'S'; // RACE: the consumer may read it meanwhile
    return arg;
}

static void *consumer(void *arg)
{
    char *got = NULL, *seen;
    long sum = 0;
    while (got == NULL) {
        pthread_mutex_lock(&m);
        got = slot;
        slot = NULL;
        pthread_mutex_unlock(&m);
    }
    sum += got[0]; // NORACE needs=uniqueness: strdup's writes happened before the hand-over
    while ((seen = board) == NULL) // RACE: the producer writes board
        ;
    sum += seen[0]; // RACE: the producer changes it
    free(got);
    return (void *)(sum + (long)arg);
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, producer, NULL);
    pthread_create(&b, NULL, consumer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    free(board);
    printf("done\n");
    return 0;
}
