/* C11's <threads.h>: workers started with thrd_create wait on a cnd_t for main's go-ahead, count
 * under a mtx_t, bump the count again only when mtx_trylock returned thrd_success, keep a
 * pointer in thread-specific storage and run an initialiser through call_once: NORACE. main
 * reads the count after thrd_join of both (NORACE). Both also count without the lock: RACE.
 * This machine's ThreadSanitizer has no interceptors for glibc's <threads.h> (the program
 * crashes under it), so for gcc the fixture defines the calls it makes over pthreads, which
 * ThreadSanitizer follows; locksmith, which defines __LOCKSMITH__, sees glibc's declarations
 * only and uses its model of them. */
#include <stdio.h>
#include <threads.h>

#ifndef __LOCKSMITH__
#include <pthread.h>
#include <stdlib.h>
struct start {
    thrd_start_t func;
    void *arg;
};
static void *trampoline(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    return (void *)(long)s.func(s.arg);
}
int thrd_create(thrd_t *thr, thrd_start_t func, void *arg)
{
    struct start *s = malloc(sizeof *s);
    s->func = func, s->arg = arg;
    return pthread_create((pthread_t *)thr, NULL, trampoline, s) ? thrd_error : thrd_success;
}
int thrd_join(thrd_t thr, int *res)
{
    void *r;
    pthread_join((pthread_t)thr, &r);
    *res = (int)(long)r;
    return thrd_success;
}
int mtx_init(mtx_t *m, int type)
{
    (void)type;
    return pthread_mutex_init((pthread_mutex_t *)m, NULL) ? thrd_error : thrd_success;
}
int mtx_lock(mtx_t *m)
{
    return pthread_mutex_lock((pthread_mutex_t *)m) ? thrd_error : thrd_success;
}
int mtx_trylock(mtx_t *m)
{
    return pthread_mutex_trylock((pthread_mutex_t *)m) ? thrd_busy : thrd_success;
}
int mtx_unlock(mtx_t *m)
{
    return pthread_mutex_unlock((pthread_mutex_t *)m) ? thrd_error : thrd_success;
}
int cnd_init(cnd_t *c)
{
    return pthread_cond_init((pthread_cond_t *)c, NULL) ? thrd_error : thrd_success;
}
int cnd_wait(cnd_t *c, mtx_t *m)
{
    return pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m) ? thrd_error
                                                                       : thrd_success;
}
int cnd_broadcast(cnd_t *c)
{
    return pthread_cond_broadcast((pthread_cond_t *)c) ? thrd_error : thrd_success;
}
void call_once(once_flag *flag, void (*func)(void))
{
    pthread_once((pthread_once_t *)flag, func);
}
int tss_create(tss_t *key, tss_dtor_t dtor)
{
    return pthread_key_create((pthread_key_t *)key, dtor) ? thrd_error : thrd_success;
}
int tss_set(tss_t key, void *value)
{
    return pthread_setspecific((pthread_key_t)key, value) ? thrd_error : thrd_success;
}
void *tss_get(tss_t key)
{
    return pthread_getspecific((pthread_key_t)key);
}
#endif

static mtx_t lock;
static cnd_t ready;
static once_flag once = ONCE_FLAG_INIT;
static tss_t own;
static int go, count, unlocked, configured;

static void configure(void)
{
    configured = 1; // NORACE
}

static int worker(void *arg)
{
    call_once(&once, configure);
    tss_set(own, arg);
    mtx_lock(&lock);
    while (!go) // NORACE
        cnd_wait(&ready, &lock);
    count++; // NORACE
    mtx_unlock(&lock);
    if (mtx_trylock(&lock) == thrd_success) {
        count++; // NORACE
        mtx_unlock(&lock);
    }
    unlocked++; // RACE
    return tss_get(own) == arg && configured; // NORACE
}

int main(void)
{
    thrd_t a, b;
    int ra, rb;
    mtx_init(&lock, mtx_plain);
    cnd_init(&ready);
    tss_create(&own, NULL);
    thrd_create(&a, worker, &ra);
    thrd_create(&b, worker, &rb);
    mtx_lock(&lock);
    go = 1; // NORACE
    cnd_broadcast(&ready);
    mtx_unlock(&lock);
    thrd_join(a, &ra);
    thrd_join(b, &rb);
    printf("%d %d %d\n", count, ra + rb, unlocked); // NORACE
    return 0;
}
