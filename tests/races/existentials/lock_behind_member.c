/* Each stash keeps a pointer to its own gate (a mutex in a struct gate_new()
 * makes), stored before the workers start (a ticker that touches no stash
 * runs then) and never replaced. Its slots point back to it, so every gate is
 * one lock label: not linear. Locking s->have->mu (in hold()) is still an
 * unpack of *s, the gate being reached only through s->have: the piles, counts
 * and uses under it are NORACE (needs=existentials), each worker getting its
 * stash as its void * argument. `moves`, under both gates, is a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
struct gate { pthread_mutex_t mu; long uses; };
static struct gate *gate_new(void)
{
    struct gate *g = malloc(sizeof *g);
    if (!g)
        abort();
    pthread_mutex_init(&g->mu, NULL);
    g->uses = 0;
    return g;
}
static void hold(struct gate *g) { pthread_mutex_lock(&g->mu); }
static void let_go(struct gate *g) { pthread_mutex_unlock(&g->mu); }
struct slot { struct stash *home; };
struct stash {
    struct gate *have;
    struct slot *pile[8];
    int n, count;
};
static struct stash left, right;
static long moves, ticks;
static void *ticker(void *arg) { ticks = (long)arg; return NULL; }

static void fill(struct stash *s)
{
    s->have = gate_new();
    for (; s->n < 4; s->n++) {
        s->pile[s->n] = malloc(sizeof(struct slot));
        s->pile[s->n]->home = s;
    }
}
static struct slot *take(struct stash *s)
{
    struct slot *x = NULL;
    hold(s->have);
    s->have->uses++; // NORACE needs=existentials
    s->count++; // NORACE needs=existentials
    if (s->n > 0) // NORACE needs=existentials
        x = s->pile[--s->n];
    let_go(s->have);
    return x;
}
static void give(struct slot *x)
{
    struct stash *s = x->home;
    hold(s->have);
    s->pile[s->n++] = x; // NORACE needs=existentials
    moves++; // RACE
    let_go(s->have);
}
static void *worker(void *arg)
{
    struct stash *s = arg;
    for (int i = 0; i < 100; i++)
        give(take(s));
    return NULL;
}
int main(void)
{
    pthread_t a, b, c;
    pthread_create(&c, NULL, ticker, NULL);
    fill(&left);
    fill(&right);
    pthread_create(&a, NULL, worker, &left);
    pthread_create(&b, NULL, worker, &right);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    printf("%d %d %ld\n", left.count, right.count, moves);
    return 0;
}
