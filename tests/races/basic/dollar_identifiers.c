/* Identifiers may contain `$` (a GNU extension that generated code uses).
 * `hit$count` is incremented by both workers with no lock: RACE.
 * `total$sum` is updated holding `sum$lock`: NORACE. A string with a `$`
 * is left as it is. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t sum$lock = PTHREAD_MUTEX_INITIALIZER;
long hit$count;
long total$sum;

static void *work$er(void *arg)
{
    long n$ = (long)arg;
    hit$count++; // RACE: both workers, no lock
    pthread_mutex_lock(&sum$lock);
    total$sum += n$; // NORACE: sum$lock held
    pthread_mutex_unlock(&sum$lock);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, work$er, (void *)1L);
    pthread_create(&b, NULL, work$er, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("$total %ld %ld\n", hit$count, total$sum);
    return 0;
}
