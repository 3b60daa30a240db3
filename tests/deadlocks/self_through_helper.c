/* A helper takes the statistics lock, and one caller calls it while already holding that lock:
 * the thread waits for itself. The other caller is fine. */
#include <pthread.h>

static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
static long hits, misses;

static void count_hit(void)
{
    pthread_mutex_lock(&stats); // DEADLOCK: reached from lookup with stats held
    hits++;
    pthread_mutex_unlock(&stats);
}

static void lookup(int found)
{
    pthread_mutex_lock(&stats);
    if (found)
        count_hit();
    else
        misses++;
    pthread_mutex_unlock(&stats);
}

static void *worker(void *arg)
{
    lookup(arg != NULL);
    count_hit();
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, &hits);
    pthread_join(t, NULL);
    return 0;
}
