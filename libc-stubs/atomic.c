/* atomic.c — the lock that makes an access atomic.
 *
 * locksmith lowers each atomic operation (C11 <stdatomic.h> through the shim, gcc's __atomic_*
 * and __sync_* builtins) into its plain reads and writes of the atomic object, between a call of
 * __locksmith_atomic_begin and one of __locksmith_atomic_end. Taking one lock that nothing else
 * takes gives exactly C11's rule (5.1.2.4p25): two atomic accesses never race with each other,
 * an atomic and a plain access of one location still do, and an atomic operation protects no
 * other access. Reports show this lock as "atomic", never by its name. */

static pthread_mutex_t __locksmith_atomic = PTHREAD_MUTEX_INITIALIZER;

void __locksmith_atomic_begin(void)
{
    pthread_mutex_lock(&__locksmith_atomic);
}

void __locksmith_atomic_end(void)
{
    pthread_mutex_unlock(&__locksmith_atomic);
}
