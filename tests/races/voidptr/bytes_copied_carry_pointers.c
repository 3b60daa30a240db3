/* A struct copied byte by byte, in the worker itself, into the worker's own
 * struct, both seen as bytes through a void *: the copy's pointer still
 * points to the shared counter, which both workers increment without a
 * lock: RACE. No call joins the two objects, only the bytes: a byte copied
 * may be part of a pointer, so the bytes of the two are one memory. The copy
 * writes each worker's own struct and only reads the template, but the two
 * objects of a byte copy are one location, as they were when the copy made
 * them one blob: FALSE-ALARM. */
#include <pthread.h>
#include <stddef.h>

struct task { long *counter; int id; };

long shared_count;
static struct task template_task = { &shared_count, 7 };

static void *worker(void *arg)
{
    struct task t;
    void *to = &t;
    const void *from = &template_task;
    unsigned char *d = to;
    const unsigned char *s = from;
    (void)arg;
    for (size_t i = 0; i < sizeof t; i++)
        d[i] = s[i]; // FALSE-ALARM: the source and the copy are one location
    (*t.counter)++; // RACE: both workers count through the copied pointer
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
