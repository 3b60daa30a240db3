/* Thread functions taken from a table of function pointers and started in a
 * loop through a function-pointer variable. One reader and two writers.
 * `config` is read and written holding `cfg_m` by every function: NORACE.
 * `writes` is incremented by both writer threads with no lock: RACE. */
#include <pthread.h>
#include <stdio.h>

#define NT 3
#define ITER 2000

pthread_mutex_t cfg_m = PTHREAD_MUTEX_INITIALIZER;
int config;
long writes;

static void *reader(void *arg)
{
    long s = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&cfg_m);
        s += config; // NORACE: cfg_m held
        pthread_mutex_unlock(&cfg_m);
    }
    return (void *)s;
}

static void *writer(void *arg)
{
    (void)arg;
    writes++; // RACE: both writer threads, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&cfg_m);
        config = i; // NORACE: cfg_m held
        pthread_mutex_unlock(&cfg_m);
    }
    return NULL;
}

static void *(*const table[NT])(void *) = { reader, writer, writer };

int main(void)
{
    pthread_t th[NT];
    for (int i = 0; i < NT; i++) {
        void *(*fn)(void *) = table[i];
        pthread_create(&th[i], NULL, fn, NULL);
    }
    for (int i = 0; i < NT; i++)
        pthread_join(th[i], NULL);
    puts("done");
    return 0;
}
