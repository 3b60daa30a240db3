/* A thread function that starts, through a helper thread, a thread of its
 * own kind: main starts `relay`, which starts a `worker`; the first worker
 * calls `relay` itself (bounded by `depth`), so a second worker runs while the
 * first is still going. The first worker's write after that call meets the
 * second worker's write before it: RACE on both lines. `depth` is only
 * touched under its lock, and `started` only by main before any thread. */
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t depth_lock = PTHREAD_MUTEX_INITIALIZER;
static int depth;
long progress;
int started;

static void *worker(void *arg);

static void *relay(void *arg)
{
    pthread_t t;
    (void)arg;
    pthread_create(&t, NULL, worker, NULL);
    pthread_detach(t);
    return NULL;
}

static void *worker(void *arg)
{
    int again;
    (void)arg;
    progress = 1; // RACE: the worker this one starts writes progress too
    pthread_mutex_lock(&depth_lock);
    again = depth++ < 1; // NORACE: under depth_lock
    pthread_mutex_unlock(&depth_lock);
    if (again) {
        relay(NULL);
        progress = -1; // RACE: the worker started above may still be writing
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    started = 1; // NORACE: before any thread
    pthread_create(&t, NULL, relay, NULL);
    pthread_detach(t);
    usleep(200000);
    return started - 1;
}
