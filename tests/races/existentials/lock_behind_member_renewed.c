/* A stash's gate, behind the pointer s->have, is the stash's own lock only
 * while the pointer keeps its gate. Here the renewer replaces left.have with
 * a fresh gate while the worker may still use the old one: the two threads
 * bump `count` under two different mutexes, a RACE (needs=linearity: taken
 * for one lock, the package would protect it), and the renewer's store
 * races with the worker's reads of the pointer. Main's store before the
 * threads start is ordered before all of it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct gate {
    pthread_mutex_t mu;
};

static struct gate *gate_new(void)
{
    struct gate *g = malloc(sizeof *g);
    if (g == NULL)
        abort();
    pthread_mutex_init(&g->mu, NULL);
    return g;
}
static void hold(struct gate *g) { pthread_mutex_lock(&g->mu); }
static void let_go(struct gate *g) { pthread_mutex_unlock(&g->mu); }

struct stash {
    struct gate *have;
    int count;
};
static struct stash left;

static void bump(struct stash *s)
{
    hold(s->have); // RACE
    s->count++; // RACE needs=linearity
    let_go(s->have);
}
static void *worker(void *arg)
{
    (void)arg;
    bump(&left);
    return NULL;
}
static void *renewer(void *arg)
{
    (void)arg;
    usleep(20000);
    left.have = gate_new(); // RACE
    bump(&left);
    return NULL;
}
int main(void)
{
    pthread_t a, b;
    left.have = gate_new(); // NORACE
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, renewer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d\n", left.count); // NORACE
    return 0;
}
