/* An array of structs whose elements are all protected by one global lock.
 * Workers update `count` and `sum` of arbitrary elements holding `table_m`:
 * NORACE. They also write the `stamp` field of the same elements with no
 * lock: RACE. With one location for all fields, the stamp race would cover
 * count and sum too, hence needs=field on those. */
#include <pthread.h>
#include <stdio.h>

#define NS 8
#define ITER 3000

struct slot {
    long count;
    long sum;
    long stamp;
};

pthread_mutex_t table_m = PTHREAD_MUTEX_INITIALIZER;
struct slot slots[NS];

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ITER; i++) {
        struct slot *s = &slots[(i * 3) % NS];
        pthread_mutex_lock(&table_m);
        s->count++; // NORACE needs=field: table_m held for every element
        s->sum += i; // NORACE needs=field: table_m held for every element
        pthread_mutex_unlock(&table_m);
    }
    for (int i = 0; i < NS; i++)
        slots[i].stamp = id; // RACE: both workers, no lock
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_create(&t2, NULL, worker, (void *)2L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&table_m);
    printf("%ld\n", slots[0].count); // NORACE: table_m held
    pthread_mutex_unlock(&table_m);
    return 0;
}
