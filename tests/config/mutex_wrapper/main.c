/* A lock wrapper from a library locksmith is not given (guard_enter, guard_leave: declared
 * only), around a struct that keeps its pthread mutex as a member. locksmith.toml says they
 * acquire and release the guard their argument points to: for a struct, that is its first lock
 * member, so the reporter's direct pthread_mutex_lock(&g.mutex) takes the same lock as the
 * workers' guard_enter(&g). log_event is a thread-safe logging function of the same library. */
#include <pthread.h>
#include <stdio.h>

struct guard {
    int depth;
    pthread_mutex_t mutex;
};

void guard_enter(struct guard *g);
void guard_leave(struct guard *g);
void log_event(const char *what, long value);

static struct guard g = {0, PTHREAD_MUTEX_INITIALIZER};
static long balance;
static long audits;

static void *worker(void *arg)
{
    for (long i = 0; i < 100; i++) {
        guard_enter(&g);
        balance += i; // NORACE: g.mutex held through guard_enter
        guard_leave(&g);
        log_event("deposit", i);
    }
    return arg;
}

static void *auditor(void *arg)
{
    pthread_mutex_lock(&g.mutex);
    long seen = balance; // NORACE: g.mutex held
    pthread_mutex_unlock(&g.mutex);
    audits++; // RACE: written while the watcher reads it, without a lock
    log_event("audit", seen);
    return arg;
}

static void *watcher(void *arg)
{
    printf("%ld\n", audits); // RACE: read while the auditor writes it
    return arg;
}

int main(void)
{
    pthread_t w, a, v;
    pthread_create(&w, NULL, worker, NULL);
    pthread_create(&a, NULL, auditor, NULL);
    pthread_create(&v, NULL, watcher, NULL);
    pthread_join(w, NULL);
    pthread_join(a, NULL);
    pthread_join(v, NULL);
    return 0;
}
