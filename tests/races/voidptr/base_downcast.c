/* Struct "inheritance" through void*: `struct conn` embeds `struct obj` as its
 * first member, and handlers receive a void* that they view either as the base
 * object or as the whole connection. The retainer bumps the base's `refs`
 * through a `struct obj *`; the closer clears the same counter through the
 * `struct conn *` view. Neither holds a lock: RACE on `refs` from both sides.
 * The two views are one memory (C lets a pointer to a struct be converted to a
 * pointer to its first member), so locksmith must not keep them apart as it
 * keeps apart unrelated types cast to one void*. `bytes` is only touched under
 * `conn_m`, but it is a FALSE-ALARM: locksmith conflates the two views instead
 * of matching the base view with the connection's first member. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 4000

struct obj { int refs; int kind; };
struct conn { struct obj base; long bytes; };

pthread_mutex_t conn_m = PTHREAD_MUTEX_INITIALIZER;
struct conn the_conn;
void *handle = &the_conn;

static void retain(void *p)
{
    struct obj *o = p;
    o->refs++; // RACE: the closer writes refs through the conn view without a lock
}

static void *retainer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++)
        retain(handle);
    return NULL;
}

static void *closer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        struct conn *c = handle;
        c->base.refs = 0; // RACE: the retainer bumps refs through the base view without a lock
        pthread_mutex_lock(&conn_m);
        c->bytes += i; // FALSE-ALARM: conn_m held; but the base and connection views of one void* are conflated, and refs races
        pthread_mutex_unlock(&conn_m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, retainer, NULL);
    pthread_create(&b, NULL, closer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld\n", the_conn.base.refs, the_conn.bytes);
    return 0;
}
