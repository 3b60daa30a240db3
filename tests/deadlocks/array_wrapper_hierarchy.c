/* A global array of mutexes used as a lock hierarchy through wrappers that take the index
 * (as a program locks `table[LOG]` while holding `table[IO]`): every thread takes a lower
 * index before a higher one, so the lock order has no cycle. The array's one label would make
 * it look like a cycle between two elements; each element named by a constant is a lock of
 * its own. */
#include <pthread.h>

enum { IO, LOG, N };

static pthread_mutex_t table[N] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static long sent, logged;

static void take(int k)
{
    pthread_mutex_lock(&table[k]); // NODEADLOCK: always IO before LOG
}

static void put(int k)
{
    pthread_mutex_unlock(&table[k]);
}

static void note(void)
{
    take(LOG);
    logged++;
    put(LOG);
}

static void *sender(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++) {
        take(IO);
        sent++;
        note();
        put(IO);
    }
    return NULL;
}

int main(void)
{
    pthread_t t, u;
    pthread_create(&t, NULL, sender, NULL);
    pthread_create(&u, NULL, sender, NULL);
    note();
    pthread_join(t, NULL);
    pthread_join(u, NULL);
    return 0;
}
