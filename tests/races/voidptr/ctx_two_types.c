/* A void* that carries two different types at different times. The setter
 * alternates the global `current` between &the_counter and &the_label, with
 * `kind` telling which, all under `m`. Users cast `current` back according
 * to `kind` and update the object under m. `kind`, `current` and the label
 * fields are only accessed with m held: NORACE. The peeker grabs the
 * counter pointer under m and then reads the counter's `n` without m while
 * the users write it under m: RACE on both accesses of `n`. The label fields
 * must not be dragged into that race: the void* keeps one entry per type cast
 * to or from it (paper §3.4), so the counter and the label stay apart.
 * needs=void: with every type cast to one void* conflated, the label is the
 * counter's location and shares its race. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

struct counter { long n; };
struct label { char text[16]; int len; };

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct counter the_counter;
struct label the_label;
int kind;
void *current;

static void *setter(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        kind = (i & 1) ? 1 : 2; // NORACE: m held
        current = (i & 1) ? (void *)&the_counter : (void *)&the_label; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *user(void *arg)
{
    for (int i = 0; i < 2 * ITER; i++) {
        pthread_mutex_lock(&m);
        if (kind == 1) { // NORACE: m held
            struct counter *c = current; // NORACE: m held
            c->n++; // RACE: the peeker reads n without m
        } else if (kind == 2) { // NORACE: m held
            struct label *l = current; // NORACE: m held
            l->len = (l->len + 1) % 15; // NORACE needs=void: m held; the label is not the counter
            l->text[l->len] = 'a' + (char)(long)arg; // NORACE needs=void: m held; the label is not the counter
        }
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *peeker(void *arg)
{
    void *p = NULL;
    (void)arg;
    while (p == NULL) {
        pthread_mutex_lock(&m);
        if (kind == 1) // NORACE: m held
            p = current; // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return (void *)((struct counter *)p)->n; // RACE: read without m
}

int main(void)
{
    pthread_t s, u0, u1, pk;
    kind = 1;
    current = &the_counter;
    pthread_create(&pk, NULL, peeker, NULL);
    pthread_create(&s, NULL, setter, NULL);
    pthread_create(&u0, NULL, user, (void *)0L);
    pthread_create(&u1, NULL, user, (void *)1L);
    pthread_join(s, NULL);
    pthread_join(u0, NULL);
    pthread_join(u1, NULL);
    pthread_join(pk, NULL);
    puts("done");
    return 0;
}
