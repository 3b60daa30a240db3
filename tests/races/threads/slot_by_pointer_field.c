/* Each worker gets a fresh argument whose `out` points to its own element
 * of main's array (`a->out = &outs[i]` with the loop's counter): the
 * workers' writes through it touch different elements (NORACE), and main
 * reads them after the joins. Halvers point two of them at one element
 * (RACE); a redirector points its own field at a shared cell (RACE); a
 * spiller writes the element after its own too (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct arg {
    int id;
    long *out;
};

struct half_arg {
    long *out;
};

struct redirect_arg {
    long *out;
};

struct spill_arg {
    long *out;
};

static long shared_cell;

static void *square(void *p)
{
    struct arg *a = p;
    *a->out = (long)a->id * a->id; // NORACE needs=existentials: its own element
    free(a);
    return NULL;
}

static void *halver(void *p)
{
    struct half_arg *a = p;
    *a->out += 1; // RACE: two halvers share an element
    free(a);
    return NULL;
}

static void *redirector(void *p)
{
    struct redirect_arg *a = p;
    a->out = &shared_cell;
    *a->out += 1; // RACE: every redirector writes the shared cell
    free(a);
    return NULL;
}

static void *spiller(void *p)
{
    struct spill_arg *a = p;
    *a->out = 1; // RACE: the previous spiller writes this element too
    a->out[1] = 1; // RACE: the next spiller owns that element
    free(a);
    return NULL;
}

int main(void)
{
    pthread_t t[N], u[N], v[N], w[N];
    long outs[N], halves[N], spills[N + 1];
    for (int i = 0; i < N; i++) {
        struct arg *a = malloc(sizeof *a);
        if (!a)
            return 1;
        a->id = i;
        a->out = &outs[i];
        pthread_create(&t[i], NULL, square, a);
    }
    for (int i = 0; i < N; i++) {
        halves[i] = 0;
        spills[i] = 0;
    }
    spills[N] = 0;
    for (int i = 0; i < N; i++) {
        struct half_arg *a = malloc(sizeof *a);
        if (!a)
            return 1;
        a->out = &halves[i / 2];
        pthread_create(&u[i], NULL, halver, a);
    }
    for (int i = 0; i < N; i++) {
        struct redirect_arg *a = malloc(sizeof *a);
        if (!a)
            return 1;
        a->out = &halves[i];
        pthread_create(&v[i], NULL, redirector, a);
    }
    for (int i = 0; i < N; i++) {
        struct spill_arg *a = malloc(sizeof *a);
        if (!a)
            return 1;
        a->out = &spills[i];
        pthread_create(&w[i], NULL, spiller, a);
    }
    long total = shared_cell; // RACE: the redirectors write it
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        pthread_join(u[i], NULL);
        pthread_join(v[i], NULL);
        pthread_join(w[i], NULL);
    }
    for (int i = 0; i < N; i++)
        total += outs[i] + halves[i] + spills[i];
    printf("%ld\n", total + shared_cell);
    return 0;
}
