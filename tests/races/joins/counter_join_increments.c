/* A counter join counted as CIL writes it: main counts each worker up under
 * `lock` right after starting it (`while` loop, `j ++` last), each worker
 * counts itself down under `lock` at its end, and main polls the count under
 * the lock until it is zero. After that loop no worker runs, so main's
 * unlocked read of `matches` is NORACE needs=joins; a second counter whose
 * wait reads it without the lock orders nothing, so main's read of `misses`
 * after it is a RACE, as is that unlocked read of the counter itself. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned short active;
static unsigned short pending;
static long matches;
static long misses;

static void *scanner(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    matches++; // NORACE needs=joins: under lock among scanners; main reads it after the count drains
    active = (unsigned short)((int)active - 1);
    pthread_mutex_unlock(&lock);
    return (void *)0;
}

static void *misser(void *arg)
{
    (void)arg;
    usleep(100000);
    misses++; // RACE: the other misser writes it too, and main waits for `pending` unlocked
    pthread_mutex_lock(&lock);
    pending--; // RACE: main's wait reads it without the lock
    pthread_mutex_unlock(&lock);
    return (void *)0;
}

int main(void)
{
    pthread_t tid;
    int j;
    j = 0;
    while (j < 3) {
        if (pthread_create(&tid, NULL, &scanner, NULL) != 0)
            return 1;
        pthread_detach(tid);
        pthread_mutex_lock(&lock);
        active = (unsigned short)((int)active + 1);
        pthread_mutex_unlock(&lock);
        j ++;
    }
    for (j = 0; j < 2; j++) {
        pthread_create(&tid, NULL, &misser, NULL);
        pthread_detach(tid);
        pthread_mutex_lock(&lock);
        pending++;
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    while (active != 0) {
        pthread_mutex_unlock(&lock);
        usleep(1000);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    while (pending > 0) // RACE: read without the lock the misser writes it under
        usleep(1000);
    printf("%ld\n", matches);
    printf("%ld\n", misses); // RACE: the missers may still run
    return 0;
}
