/* Each worker gets its own element of `slots`, but the first worker clears
 * the whole array through its argument with memset, so it writes the other
 * workers' elements while they use their own, and while main still fills in
 * the later ones: RACE. A library call through
 * a handed element may reach past it, and is not the worker's own access. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define N 4

struct slot {
    int id;
    long sum;
};

static struct slot slots[N];

static void *worker(void *arg)
{
    struct slot *s = arg;
    if (s->id == 0) // RACE: the first worker may be clearing this element
        memset(s, 0, N * sizeof *s); // RACE: it clears the other workers' elements
    else
        s->sum += 1; // RACE: the first worker clears this element
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        slots[i].id = i; // RACE: the first worker may be clearing it already
        pthread_create(&t[i], NULL, worker, &slots[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    printf("%ld\n", slots[1].sum);
    return 0;
}
