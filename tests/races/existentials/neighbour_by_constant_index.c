/* Two records, each with its own mutex. The first thread locks the record
 * `p` points to and then bumps `p[1].count`, the next record's, which that
 * lock does not guard; the second thread bumps the second record's count
 * under its own mutex: RACE. `p[0]` is `p`'s own record: its count is only
 * bumped under its mutex, NORACE. */
#include <pthread.h>
#include <stdio.h>

struct record {
    pthread_mutex_t m;
    long count;
};

static struct record records[2] = {
    {PTHREAD_MUTEX_INITIALIZER, 0},
    {PTHREAD_MUTEX_INITIALIZER, 0},
};

static void *first(void *arg)
{
    struct record *p = arg;
    for (int k = 0; k < 1000; k++) {
        pthread_mutex_lock(&p->m);
        p[0].count++; // NORACE needs=existentials: p's own mutex held
        p[1].count++; // RACE: the next record's mutex is not held
        pthread_mutex_unlock(&p->m);
    }
    return NULL;
}

static void *second(void *arg)
{
    struct record *q = arg;
    for (int k = 0; k < 1000; k++) {
        pthread_mutex_lock(&q->m);
        q->count++; // RACE: the first thread bumps it under another mutex
        pthread_mutex_unlock(&q->m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, first, &records[0]);
    pthread_create(&b, NULL, second, &records[1]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", records[0].count, records[1].count);
    return 0;
}
