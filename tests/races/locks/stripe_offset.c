/* Lock striping guards `cells[j]` with `stripes[j]`. `bump_next` takes the stripe after its
 * cell's (`stripes[j + 1]`) while `bump` takes the right one: for the same `j` they hold
 * different locks, so their writes of `cells[j]` race. Both also count their calls in
 * `calls`, holding `m`: NORACE. */
#include <pthread.h>
#include <stdio.h>

#define STRIPES 4

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long calls;

static struct {
    pthread_mutex_t stripes[STRIPES];
    long cells[STRIPES];
} table = {{PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
            PTHREAD_MUTEX_INITIALIZER}, {0, 0, 0, 0}};

static void *bump(void *arg)
{
    int j = (int)(long)arg;
    pthread_mutex_lock(&table.stripes[j]);
    table.cells[j]++; // RACE: bump_next writes cells[1] holding stripes[2]
    pthread_mutex_unlock(&table.stripes[j]);
    pthread_mutex_lock(&m);
    calls++; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *bump_next(void *arg)
{
    int j = (int)(long)arg;
    pthread_mutex_lock(&table.stripes[j + 1]);
    table.cells[j]++; // RACE: bump writes cells[1] holding stripes[1]
    pthread_mutex_unlock(&table.stripes[j + 1]);
    pthread_mutex_lock(&m);
    calls++; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, bump, (void *)1L);
    pthread_create(&b, NULL, bump_next, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", table.cells[1], calls);
    return 0;
}
