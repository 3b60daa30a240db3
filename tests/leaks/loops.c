/* Lock leaks in loops. `drain` skips a record with `continue` before it unlocks, so the next
 * round takes the lock it still holds: LEAK on that lock call. `wait_ready` waits on a
 * condition in its loop (the wait takes the lock again, as it must), `batch` releases and takes
 * the lock again around its work inside the loop, `poll` releases on every way round, and
 * `sometimes` takes and releases the lock under one repeated condition. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int records[16];
static int next;
static int ready;

static void drain(void)
{
    for (int i = 0; i < 16; i++) {
        pthread_mutex_lock(&lock); // LEAK
        if (records[i] < 0)
            continue;
        next = i;
        pthread_mutex_unlock(&lock);
    }
}

static void wait_ready(void)
{
    pthread_mutex_lock(&lock); // NOLEAK
    while (!ready)
        pthread_cond_wait(&ready_cond, &lock); // NOLEAK
    pthread_mutex_unlock(&lock);
}

static void batch(void)
{
    pthread_mutex_lock(&lock); // NOLEAK
    while (next < 16) {
        int i = next++;
        pthread_mutex_unlock(&lock);
        records[i] = i;
        pthread_mutex_lock(&lock); // NOLEAK
    }
    pthread_mutex_unlock(&lock);
}

static void poll(void)
{
    for (int i = 0; i < 16; i++) {
        pthread_mutex_lock(&lock); // NOLEAK
        if (records[i] == 0) {
            pthread_mutex_unlock(&lock);
            continue;
        }
        next = i;
        pthread_mutex_unlock(&lock);
    }
}

static void sometimes(int locked)
{
    for (int i = 0; i < 16; i++) {
        if (locked)
            pthread_mutex_lock(&lock); // NOLEAK
        records[i]++;
        if (locked)
            pthread_mutex_unlock(&lock);
    }
}

static void *announcer(void *arg)
{
    pthread_mutex_lock(&lock);
    ready = 1;
    pthread_cond_signal(&ready_cond);
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, announcer, NULL);
    wait_ready();
    pthread_join(t, NULL);
    batch();
    poll();
    drain();
    sometimes(next > 3);
    printf("%d\n", next);
    return 0;
}
