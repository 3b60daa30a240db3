/* Configuration that never changes. `use_cache` is never written after its
 * initializer, so `if (use_cache)` never runs its body: the unlocked
 * `cache_hits++` there cannot race (NORACE). `start_server` is 0 at the only
 * call of `init`, which stores it in `server`; the server thread behind
 * `if (server == 1)` is never created, so its write of `queued` cannot race
 * with main's (NORACE). Variables that do change keep their branches:
 * `verbose` is set from argc, so the logging under `if (verbose)` runs in both
 * workers (RACE). */
#include <pthread.h>
#include <stdio.h>

static int use_cache = 0;
static unsigned server;
static int verbose;
static long cache_hits, served, logged, queued;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *server_thread(void *arg)
{
    queued = 0; // NORACE needs=configuration
    return arg;
}

static void init(unsigned start_server)
{
    pthread_t t;
    server = start_server;
    if (server == 1)
        pthread_create(&t, NULL, server_thread, NULL);
}

static void *worker(void *arg)
{
    if (use_cache)
        cache_hits++; // NORACE needs=configuration
    pthread_mutex_lock(&m);
    served++; // NORACE
    pthread_mutex_unlock(&m);
    if (verbose)
        logged++; // RACE
    return arg;
}

int main(int argc, char **argv)
{
    pthread_t a, b;
    (void)argv;
    verbose = argc > 0;
    init(0);
    queued = 5; // NORACE needs=configuration
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    queued++; // NORACE needs=configuration
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld %ld %ld\n", cache_hits, served, logged, queued);
    return 0;
}
