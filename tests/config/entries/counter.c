/* A library without main: its users call counter_add and counter_read from any number of
 * threads. locksmith.toml names them as entry points (as --entry would). */
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long value;
static long calls;

void counter_add(long n)
{
    pthread_mutex_lock(&lock);
    value += n; // NORACE: lock held
    pthread_mutex_unlock(&lock);
    calls++; // RACE: every caller counts without the lock
}

long counter_read(void)
{
    pthread_mutex_lock(&lock);
    long v = value; // NORACE: lock held
    pthread_mutex_unlock(&lock);
    return v;
}
