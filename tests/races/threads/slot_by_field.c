/* Each worker gets its own element of main's array, whose `id` main set to
 * the loop's counter just before the create; the worker keeps the id in a
 * local and writes its own slot of the global `partial` by it, or indexes
 * `counted` (or main's block `tally`) by the field itself: NORACE.
 * A relabeller overwrites its own id, and two relabellers then share a slot
 * (RACE); halvers are given half the counter, two per slot (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

struct task {
    int id;
    int lo, hi;
};

struct relabel {
    int id;
};

struct half {
    int id;
};

static int data[N * 100];
static long partial[N];
static long relabelled[N];
static long halved[N];
static long counted[N], seen[N];
static long *tally;

static void *sum(void *arg)
{
    struct task *my = (struct task *)arg;
    int id = my->id;
    long s = 0;
    for (int i = my->lo; i < my->hi; i++)
        s += data[i];
    partial[id] = s; // NORACE needs=existentials: each worker has its own id
    counted[my->id]++; // NORACE needs=existentials: indexed by the field itself
    tally[my->id]++; // NORACE needs=existentials: the same, in a block main allocated
    return NULL;
}

static void *relabeller(void *arg)
{
    struct relabel *my = arg;
    my->id = my->id / 2;
    int id = my->id;
    relabelled[id] += 1; // RACE: two relabellers end with one id
    return NULL;
}

static void *halver(void *arg)
{
    struct half *my = arg;
    int id = my->id;
    halved[id] += 1; // RACE: two halvers are given one id
    seen[my->id]++; // RACE: indexed by the field itself, still shared by two
    return NULL;
}

int main(void)
{
    pthread_t t[N], u[N], v[N];
    struct task tasks[N];
    struct relabel labels[N];
    struct half halves[N];
    for (int i = 0; i < N * 100; i++)
        data[i] = i;
    tally = calloc(N, sizeof *tally);
    if (!tally)
        return 1;
    for (int i = 0; i < N; i++) {
        tasks[i].id = i;
        tasks[i].lo = i * 100;
        tasks[i].hi = i * 100 + 100;
        pthread_create(&t[i], NULL, sum, (void *)&tasks[i]);
    }
    for (int i = 0; i < N; i++) {
        labels[i].id = i;
        pthread_create(&u[i], NULL, relabeller, &labels[i]);
    }
    for (int i = 0; i < N; i++) {
        halves[i].id = i / 2;
        pthread_create(&v[i], NULL, halver, &halves[i]);
    }
    long total = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        pthread_join(u[i], NULL);
        pthread_join(v[i], NULL);
    }
    for (int i = 0; i < N; i++)
        total += partial[i] + relabelled[i] + halved[i];
    printf("%ld %ld %ld %ld\n", total, counted[1], seen[1], tally[1]);
    free(tally);
    return 0;
}
