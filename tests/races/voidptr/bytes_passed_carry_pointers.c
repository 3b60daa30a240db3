/* As bytes_copied_carry_pointers.c, but each byte is handed by value to a
 * helper that stores it: a byte passed to a call may be part of a pointer
 * too, so the callee's parameter is bytes of the caller's source, and what it
 * stores makes the worker's struct hold the template's pointer: RACE on the
 * shared counter. The store writes each worker's own struct, but the two
 * objects of the copy are one location: FALSE-ALARM. */
#include <pthread.h>
#include <stddef.h>

struct task { long *counter; int id; };

long shared_count;
static struct task template_task = { &shared_count, 7 };

static void put(unsigned char *p, unsigned char c) { *p = c; } // FALSE-ALARM: one location

static void *worker(void *arg)
{
    struct task t;
    void *to = &t;
    const void *from = &template_task;
    unsigned char *d = to;
    const unsigned char *s = from;
    (void)arg;
    for (size_t i = 0; i < sizeof t; i++)
        put(&d[i], s[i]);
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
