/* The writer takes the journal lock two helpers below the call that holds the table lock;
 * neither helper holds a lock itself. The flusher takes the two locks in the other order, so
 * the two threads may deadlock. The auditor calls the same helpers holding nothing: its lock
 * call orders nothing, and a lock call of a thread no caller of which holds a lock (the
 * ticker's) is in no deadlock either. */
#include <pthread.h>

static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t journal = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ticks = PTHREAD_MUTEX_INITIALIZER;
static long entries, rows, count;

static void journal_append(long v)
{
    pthread_mutex_lock(&journal); // DEADLOCK: waited for holding table, taken before table
    entries += v;
    pthread_mutex_unlock(&journal);
}

static void record(long v)
{
    journal_append(v);
}

static void note(long v)
{
    record(v + 1);
}

static void *writer(void *arg)
{
    pthread_mutex_lock(&table);
    rows++;
    note((long)rows);
    pthread_mutex_unlock(&table);
    return arg;
}

static void *flusher(void *arg)
{
    pthread_mutex_lock(&journal);
    pthread_mutex_lock(&table); // DEADLOCK: waited for holding journal
    entries = rows;
    pthread_mutex_unlock(&table);
    pthread_mutex_unlock(&journal);
    return arg;
}

static void *auditor(void *arg)
{
    note(0);
    return arg;
}

static void *ticker(void *arg)
{
    pthread_mutex_lock(&ticks); // NODEADLOCK: holds nothing and no caller holds a lock
    count++;
    pthread_mutex_unlock(&ticks);
    return arg;
}

int main(void)
{
    pthread_t w, f, a, t;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&f, NULL, flusher, NULL);
    pthread_create(&a, NULL, auditor, NULL);
    pthread_create(&t, NULL, ticker, NULL);
    pthread_join(w, NULL);
    pthread_join(f, NULL);
    pthread_join(a, NULL);
    pthread_join(t, NULL);
    return 0;
}
