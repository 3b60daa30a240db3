/* Workers described by an array of structs, each holding its thread id
 * (`tid`) beside its input and result, and handed its own element. The
 * create loop starts one per element and the join loop joins every element's
 * `tid`: after it, main's reads of the results are NORACE needs=joins. The
 * second group's join loop stops one short, so its last worker may still be
 * writing its result when main reads it: a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 3

struct worker {
    pthread_t tid;
    int id;
    long out;
};

static void *run(void *arg)
{
    struct worker *w = arg;
    w->out = w->id * 10L; // NORACE needs=joins
    return NULL;
}

static void *run_late(void *arg)
{
    struct worker *w = arg;
    usleep(20000);
    w->out = w->id; // RACE
    return NULL;
}

int main(void)
{
    struct worker w[N], v[N];
    long sum = 0;
    for (int i = 0; i < N; i++) {
        w[i].id = i;
        pthread_create(&w[i].tid, NULL, run, &w[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(w[i].tid, NULL);
    for (int i = 0; i < N; i++)
        sum += w[i].out; // NORACE needs=joins
    for (int i = 0; i < N; i++) {
        v[i].id = i;
        pthread_create(&v[i].tid, NULL, run_late, &v[i]);
    }
    for (int i = 0; i < N - 1; i++)
        pthread_join(v[i].tid, NULL);
    sum += v[N - 1].out; // RACE
    pthread_join(v[N - 1].tid, NULL);
    printf("%ld\n", sum);
    return 0;
}
