/* A global array of mutexes whose elements are named by constants, directly
 * and through lock wrappers that take the index as a parameter (one wrapper
 * calls another, and a condition wait goes through a helper that takes the
 * mutex by pointer). Each element is a lock of its own, so data always
 * updated under one element is NORACE; data updated under two different
 * elements is RACE (`mixed`, in two threads that share no other lock). */
#include <pthread.h>

enum { LOCK_STATS, LOCK_QUEUE, LOCK_LOG, LOCK_TALLY_A, LOCK_TALLY_B, LOCK_MAX };

pthread_mutex_t locks[LOCK_MAX];
pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
long served;
long queued;
long log_lines;
long mixed;

static void lock(int k)
{
    pthread_mutex_lock(&locks[k]);
}

static void unlock(int k)
{
    pthread_mutex_unlock(&locks[k]);
}

static void lock_logged(int which)
{
    lock(which);
}

static void wait_on(pthread_cond_t *c, pthread_mutex_t *m)
{
    pthread_cond_wait(c, m);
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        lock(LOCK_QUEUE);
        queued++; // NORACE: always under locks[LOCK_QUEUE]
        pthread_cond_signal(&queue_ready);
        unlock(LOCK_QUEUE);
        lock_logged(LOCK_LOG);
        log_lines++; // NORACE: always under locks[LOCK_LOG]
        unlock(LOCK_LOG);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        lock(LOCK_QUEUE);
        while (queued == 0) // NORACE: under locks[LOCK_QUEUE]
            wait_on(&queue_ready, &locks[LOCK_QUEUE]);
        queued--; // NORACE: under locks[LOCK_QUEUE], held again after the wait
        unlock(LOCK_QUEUE);
        pthread_mutex_lock(&locks[LOCK_STATS]);
        served++; // NORACE: always under locks[LOCK_STATS]
        pthread_mutex_unlock(&locks[LOCK_STATS]);
        lock(LOCK_LOG);
        log_lines++; // NORACE: always under locks[LOCK_LOG]
        unlock(LOCK_LOG);
    }
    return NULL;
}

static void *tally_a(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        lock(LOCK_TALLY_A);
        mixed++; // RACE: under locks[LOCK_TALLY_A] here, locks[LOCK_TALLY_B] in tally_b
        unlock(LOCK_TALLY_A);
    }
    return NULL;
}

static void *tally_b(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        lock_logged(LOCK_TALLY_B);
        mixed++; // RACE: under locks[LOCK_TALLY_B] here, locks[LOCK_TALLY_A] in tally_a
        unlock(LOCK_TALLY_B);
    }
    return NULL;
}

static void *auditor(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        lock(LOCK_STATS);
        served += 0; // NORACE: always under locks[LOCK_STATS]
        unlock(LOCK_STATS);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[5];
    for (int i = 0; i < LOCK_MAX; i++)
        pthread_mutex_init(&locks[i], NULL);
    pthread_create(&t[0], NULL, producer, NULL);
    pthread_create(&t[1], NULL, consumer, NULL);
    pthread_create(&t[2], NULL, auditor, NULL);
    pthread_create(&t[3], NULL, tally_a, NULL);
    pthread_create(&t[4], NULL, tally_b, NULL);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    return 0;
}
