/* A counter join that counts each worker before starting it: main takes
 * `lock`, counts the worker up, releases it, then creates the worker; each
 * worker counts itself down under `lock` as its last act, and main waits
 * under the lock until the count is zero. Every worker was counted before it
 * started, so after the wait none runs: main's unlocked read of `total` is
 * NORACE needs=joins. The second group counts only the first of its two
 * workers (the other, started on one path, without a count), so its wait
 * orders nothing: main's read of `stray` after it is a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static int running, others;
static long total;
static int stray;

static void *worker(void *arg)
{
    pthread_mutex_lock(&lock);
    total += (long)arg; // NORACE needs=joins: under lock among workers; main reads it after the wait
    running--;
    pthread_mutex_unlock(&lock);
    pthread_cond_signal(&done);
    return NULL;
}

static void *other(void *arg)
{
    if ((long)arg == 1) {
        usleep(100000);
        stray = 1; // RACE: the uncounted worker's count-down may end main's wait first
    }
    pthread_mutex_lock(&lock);
    others--;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t;
    (void)argv;
    for (long i = 0; i < 4; i++) {
        pthread_mutex_lock(&lock);
        running++;
        pthread_mutex_unlock(&lock);
        pthread_create(&t, NULL, worker, (void *)i);
        pthread_detach(t);
    }
    pthread_mutex_lock(&lock);
    while (running > 0)
        pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
    printf("%ld\n", total);
    pthread_mutex_lock(&lock);
    others++;
    pthread_mutex_unlock(&lock);
    pthread_create(&t, NULL, other, (void *)1);
    pthread_detach(t);
    if (argc < 3)
        pthread_create(&t, NULL, other, (void *)2);
    pthread_detach(t);
    pthread_mutex_lock(&lock);
    while (others > 0) {
        pthread_mutex_unlock(&lock);
        usleep(1000);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    printf("%d\n", stray); // RACE: the counted worker may still be running
    usleep(200000); /* let it end before the process does */
    return 0;
}
