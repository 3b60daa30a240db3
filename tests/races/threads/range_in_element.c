/* main hands each worker its own element, whose bounds it sets to
 * [i * chunk, (i + 1) * chunk) just before the create: each worker walks
 * its own stretch of `out`, directly through the element or through locals
 * copied from it: NORACE. A bound one too far reaches the next worker's
 * first element (RACE); a worker that moves its own lower bound down walks
 * the previous worker's stretch too (RACE). */
#include <pthread.h>
#include <stdio.h>

#define N 64
#define T 4

struct span { int lo, hi; };
struct wide { long lo, hi; double scale; };
struct moved { int lo, hi, pad; };

static double out[N], over[N + 1], back[N];

static void *fill(void *arg)
{
    struct span *s = arg;
    for (int i = s->lo; i < s->hi; i++)
        out[i] = 2.0 * i; // NORACE needs=existentials: only this worker's stretch
    int lo = s->lo, hi = s->hi;
    for (int i = lo; i < hi; i++)
        out[i] += 1.0; // NORACE needs=existentials: the same stretch, through locals
    return NULL;
}

static void *spill(void *arg)
{
    struct wide *w = arg;
    for (long i = w->lo; i < w->hi; i++)
        over[i] += 1.0; // RACE: the last element is the next worker's first
    return NULL;
}

static void *shift(void *arg)
{
    struct moved *m = arg;
    if (m->lo > 0)
        m->lo -= 1;
    for (int i = m->lo; i < m->hi; i++)
        back[i] += 1.0; // RACE: the element before this worker's stretch is the previous one's
    return NULL;
}

int main(void)
{
    pthread_t t[T], u[T], v[T];
    struct span spans[T];
    struct wide wides[T];
    struct moved moves[T];
    int chunk = N / T;
    for (int i = 0; i < T; i++) {
        spans[i].lo = i * chunk;
        spans[i].hi = (i + 1) * chunk;
        pthread_create(&t[i], NULL, fill, &spans[i]);
    }
    for (int i = 0; i < T; i++) {
        wides[i].lo = i * chunk;
        wides[i].hi = (i + 1) * chunk + 1;
        pthread_create(&u[i], NULL, spill, &wides[i]);
    }
    for (int i = 0; i < T; i++) {
        moves[i].lo = i * chunk;
        moves[i].hi = (i + 1) * chunk;
        pthread_create(&v[i], NULL, shift, &moves[i]);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(t[i], NULL);
        pthread_join(u[i], NULL);
        pthread_join(v[i], NULL);
    }
    printf("%f %f %f\n", out[1], over[16], back[15]);
    return 0;
}
