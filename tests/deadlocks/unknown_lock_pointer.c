/* A lock reached through a pointer that code locksmith cannot see hands out may be any lock
 * the program made: `registry_lock` is not static, and the library's `current_lock()` returns
 * it. `insert` takes `table_lock`, then `registry_lock`; `audit` takes the library's lock, then
 * `table_lock`: the two may wait for each other. `audit` takes the library's lock holding
 * nothing, and `report` only ever holds the library's lock: neither of those lock calls waits
 * while holding a lock. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static long table_size, registry_size, reports;

pthread_mutex_t *current_lock(void);

#ifndef __LOCKSMITH__
pthread_mutex_t *current_lock(void)
{
    return &registry_lock;
}
#endif

static void *insert(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&table_lock);
    table_size++;
    pthread_mutex_lock(&registry_lock); // DEADLOCK: holds table_lock, waits for registry_lock
    registry_size++;
    pthread_mutex_unlock(&registry_lock);
    pthread_mutex_unlock(&table_lock);
    return NULL;
}

static void *audit(void *arg)
{
    pthread_mutex_t *m = current_lock();
    (void)arg;
    pthread_mutex_lock(m); // NODEADLOCK: holds nothing
    pthread_mutex_lock(&table_lock); // DEADLOCK: holds the library's lock, waits for table_lock
    table_size--;
    pthread_mutex_unlock(&table_lock);
    pthread_mutex_unlock(m);
    return NULL;
}

static void *report(void *arg)
{
    pthread_mutex_t *m = current_lock();
    (void)arg;
    pthread_mutex_lock(m); // NODEADLOCK: holds nothing, takes nothing under it
    reports++;
    pthread_mutex_unlock(m);
    return NULL;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, insert, NULL);
    pthread_create(&b, NULL, audit, NULL);
    pthread_create(&c, NULL, report, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    printf("%ld %ld %ld\n", table_size, registry_size, reports);
    return 0;
}
