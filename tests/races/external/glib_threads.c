/* GLib's threads and locks: workers started with g_thread_new count under a GMutex (NORACE),
 * read a table under a GRWLock's reader side while main may write it under the writer side
 * (NORACE), wait on a GCond for main's go-ahead (the flag under the mutex: NORACE), and bump
 * a statistic without a lock (RACE). A worker that only tries the mutex touches the count only
 * when g_mutex_trylock returned TRUE (NORACE). The library is compiled by gcc only (a stand-in
 * for GLib built on pthreads); locksmith uses its GLib model. */
#include <pthread.h>
#include <stdio.h>

typedef void *gpointer;
typedef int gboolean;
typedef gpointer (*GThreadFunc)(gpointer data);
typedef struct _GThread GThread;
#ifdef __LOCKSMITH__
typedef union _GMutex {
    gpointer p;
    unsigned int i[2];
} GMutex;
typedef struct _GRWLock {
    gpointer p;
    unsigned int i[2];
} GRWLock;
typedef struct _GCond {
    gpointer p;
    unsigned int i[2];
} GCond;
#else
typedef struct {
    pthread_mutex_t m;
} GMutex;
typedef struct {
    pthread_rwlock_t l;
} GRWLock;
typedef struct {
    pthread_cond_t c;
} GCond;
#endif

GThread *g_thread_new(const char *name, GThreadFunc func, gpointer data);
gpointer g_thread_join(GThread *thread);
void g_mutex_lock(GMutex *mutex);
void g_mutex_unlock(GMutex *mutex);
gboolean g_mutex_trylock(GMutex *mutex);
void g_rw_lock_reader_lock(GRWLock *lock);
void g_rw_lock_reader_unlock(GRWLock *lock);
void g_rw_lock_writer_lock(GRWLock *lock);
void g_rw_lock_writer_unlock(GRWLock *lock);
void g_cond_wait(GCond *cond, GMutex *mutex);
void g_cond_broadcast(GCond *cond);

#ifndef __LOCKSMITH__
struct _GThread {
    pthread_t id;
};
static struct _GThread threads[8];
static int started;
GThread *g_thread_new(const char *name, GThreadFunc func, gpointer data)
{
    (void)name;
    GThread *t = &threads[started++];
    pthread_create(&t->id, NULL, func, data);
    return t;
}
gpointer g_thread_join(GThread *thread)
{
    gpointer result;
    pthread_join(thread->id, &result);
    return result;
}
void g_mutex_lock(GMutex *mutex)
{
    pthread_mutex_lock(&mutex->m);
}
void g_mutex_unlock(GMutex *mutex)
{
    pthread_mutex_unlock(&mutex->m);
}
gboolean g_mutex_trylock(GMutex *mutex)
{
    return pthread_mutex_trylock(&mutex->m) == 0;
}
void g_rw_lock_reader_lock(GRWLock *lock)
{
    pthread_rwlock_rdlock(&lock->l);
}
void g_rw_lock_reader_unlock(GRWLock *lock)
{
    pthread_rwlock_unlock(&lock->l);
}
void g_rw_lock_writer_lock(GRWLock *lock)
{
    pthread_rwlock_wrlock(&lock->l);
}
void g_rw_lock_writer_unlock(GRWLock *lock)
{
    pthread_rwlock_unlock(&lock->l);
}
void g_cond_wait(GCond *cond, GMutex *mutex)
{
    pthread_cond_wait(&cond->c, &mutex->m);
}
void g_cond_broadcast(GCond *cond)
{
    pthread_cond_broadcast(&cond->c);
}
#define STATIC_LOCKS 1
#endif

#ifdef STATIC_LOCKS
static GMutex lock = {PTHREAD_MUTEX_INITIALIZER};
static GRWLock table_lock = {PTHREAD_RWLOCK_INITIALIZER};
static GCond ready = {PTHREAD_COND_INITIALIZER};
#else
static GMutex lock;
static GRWLock table_lock;
static GCond ready;
#endif

static long count, tries, misses;
static int go;
static int table[4];

static gpointer worker(gpointer data)
{
    g_mutex_lock(&lock);
    while (!go) // NORACE
        g_cond_wait(&ready, &lock);
    count++; // NORACE
    g_mutex_unlock(&lock);
    if (g_mutex_trylock(&lock)) {
        tries++; // NORACE
        g_mutex_unlock(&lock);
    }
    g_rw_lock_reader_lock(&table_lock);
    long seen = table[(long)data % 4]; // NORACE
    g_rw_lock_reader_unlock(&table_lock);
    misses += seen == 0; // RACE
    return data;
}

int main(void)
{
    GThread *a = g_thread_new("a", worker, (gpointer)1);
    GThread *b = g_thread_new("b", worker, (gpointer)2);
    g_rw_lock_writer_lock(&table_lock);
    table[1] = 7; // NORACE
    g_rw_lock_writer_unlock(&table_lock);
    g_mutex_lock(&lock);
    go = 1; // NORACE
    g_cond_broadcast(&ready);
    g_mutex_unlock(&lock);
    g_thread_join(a);
    g_thread_join(b);
    g_mutex_lock(&lock);
    printf("%ld %ld\n", count, tries); // NORACE
    g_mutex_unlock(&lock);
    return 0;
}
