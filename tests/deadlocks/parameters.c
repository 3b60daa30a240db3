/* One helper takes the two locks it is given in order. Called with the same pair in opposite
 * orders by two threads it deadlocks; the third thread's call, in the first order, is only
 * part of the same cycle. The lock order is computed per call, with the callers' locks. */
#include <pthread.h>

static pthread_mutex_t checking = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t savings = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t audit_log = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t archive = PTHREAD_MUTEX_INITIALIZER;
static int moved, logged;

static void transfer(pthread_mutex_t *from, pthread_mutex_t *to)
{
    pthread_mutex_lock(from);
    pthread_mutex_lock(to); // DEADLOCK: from -> to, and both orders are passed in
    moved++;
    pthread_mutex_unlock(to);
    pthread_mutex_unlock(from);
}

static void *pay(void *arg)
{
    (void)arg;
    transfer(&checking, &savings);
    transfer(&audit_log, &archive);
    return NULL;
}

static void *refund(void *arg)
{
    (void)arg;
    transfer(&savings, &checking);
    transfer(&audit_log, &archive);
    return NULL;
}

static void *rotate(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&audit_log);
    pthread_mutex_lock(&archive); // NODEADLOCK: audit_log before archive, as in transfer's calls
    logged++;
    pthread_mutex_unlock(&archive);
    pthread_mutex_unlock(&audit_log);
    return NULL;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, pay, NULL);
    pthread_create(&b, NULL, refund, NULL);
    pthread_create(&c, NULL, rotate, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    return 0;
}
