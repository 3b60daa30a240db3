/* Each worker gets its own element of main's array `slots`, filled in just
 * before its create: main's writes of `slots[i]` and worker i's accesses
 * through its argument touch one element, ordered by the create, and the
 * other workers touch other elements: NORACE. main writes `slots[i].done`
 * again after the create, while worker i may read it: RACE. Each peeker
 * reads the element after its own (`s + 1`), which main is still filling in
 * for the next peeker: RACE. main hands each namer its element of the
 * global `ids` in the same way: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define N 4

struct slot {
    int id;
    long sum;
    int done;
};

static void *worker(void *arg)
{
    struct slot *s = arg;
    for (int k = 0; k < 1000; k++)
        s->sum += k * s->id; // NORACE needs=existentials: only this worker's element
    return (void *)(long)s->done; // RACE: main writes done after the create
}

static int ids[N];

static void *namer(void *arg)
{
    return (void *)(long)*(int *)arg; // NORACE needs=existentials: its own element
}

static void *peeker(void *arg)
{
    struct slot *s = arg;
    return (void *)(long)(s + 1)->id; // RACE: main fills in the next element
}

int main(void)
{
    pthread_t t[N], u[N], v[N];
    struct slot slots[N];
    struct slot more[N + 1];
    long total = 0;
    for (int i = 0; i < N; i++) {
        slots[i].id = i; // NORACE needs=existentials: before this worker starts, no other touches it
        slots[i].sum = 0; // NORACE needs=existentials: before this worker starts, no other touches it
        pthread_create(&t[i], NULL, worker, &slots[i]);
        slots[i].done = 1; // RACE: worker i reads it
    }
    for (int i = 0; i < N; i++) {
        more[i].id = i; // RACE: the previous peeker reads it as its next element
        pthread_create(&u[i], NULL, peeker, &more[i]);
    }
    for (int i = 0; i < N; i++) {
        ids[i] = i + 1; // NORACE needs=existentials: before this namer starts
        pthread_create(&v[i], NULL, namer, &ids[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(v[i], NULL);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < N; i++)
        pthread_join(u[i], NULL);
    for (int i = 0; i < N; i++)
        total += slots[i].sum; // NORACE: every worker has been joined
    printf("%ld\n", total);
    return 0;
}
