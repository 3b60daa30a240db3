/* Each worker writes a message into a fresh buffer, hands it to its own
 * helper `checksum`, which only reads through its argument, fixes the
 * first byte and publishes the buffer under a mutex for the reader. A
 * function that keeps none of the pointers it is given leaves the buffer
 * unpublished, so the write after the call comes before the publication:
 * NORACE (the reader takes the buffer under the mutex). `remember` keeps
 * its argument in a global the reader looks through without the mutex:
 * what the worker writes after handing the buffer to it races (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char *slots[N];
static long sums[N];
static char *last;

static long checksum(const char *s)
{
    return s[0] + s[1];
}

static void remember(char *line)
{
    last = line; // RACE: every worker stores the pointer
}

static void *worker(void *arg)
{
    long id = (long)arg;
    char *msg = malloc(16);
    char *note = malloc(16);
    if (!msg || !note)
        return NULL;
    snprintf(msg, 16, "msg %ld", id);
    sums[id] = checksum(msg);
    msg[0] = 'M'; // NORACE needs=uniqueness: checksum kept no pointer to it
    pthread_mutex_lock(&m);
    slots[id] = msg;
    pthread_mutex_unlock(&m);
    remember(note);
    note[0] = 'N'; // RACE: the reader may read it through last
    return NULL;
}

static void *reader(void *arg)
{
    long k, seen = (long)arg;
    for (k = 0; k < N; k++) {
        pthread_mutex_lock(&m);
        char *p = slots[k];
        pthread_mutex_unlock(&m);
        if (p)
            seen += p[0];
    }
    char *l = last; // RACE: the workers store it without a lock
    if (l)
        seen += l[0]; // RACE: a worker writes its note after handing it over
    return (void *)seen;
}

int main(void)
{
    pthread_t t[N], r;
    long i;
    for (i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    pthread_create(&r, NULL, reader, NULL);
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    pthread_join(r, NULL);
    return 0;
}
