/* A counter join gone wrong: main counts each worker it starts under
 * `count_lock`, each worker counts itself down under it as its last act, but
 * main polls the count WITHOUT the lock. Nothing then orders the workers'
 * writes before main's reads after the loop: the read of `running` races with
 * the count-downs, and so do main's reads of the results, only because of it.
 * locksmith reports the results' races as consequences of the race on
 * `running` (the one to fix); taking the lock around the test fixes all. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NWORKERS 4

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int running;
static long results[NWORKERS];
static char names[NWORKERS][16];

static void *worker(void *arg)
{
    long id = (long)arg;
    usleep(20000); /* after main has counted every worker */
    results[id] = id * id; // RACE: main reads it after an unlocked wait
    snprintf(names[id], sizeof names[id], "worker %ld", id); // RACE: likewise
    pthread_mutex_lock(&count_lock);
    running--; // RACE: main tests it without count_lock
    pthread_mutex_unlock(&count_lock);
    return NULL;
}

int main(void)
{
    pthread_t t;
    for (long i = 0; i < NWORKERS; i++) {
        pthread_create(&t, NULL, worker, (void *)i);
        pthread_detach(t);
        pthread_mutex_lock(&count_lock);
        running++;
        pthread_mutex_unlock(&count_lock);
    }
    while (running > 0) // RACE: read without count_lock
        usleep(1000);
    long total = 0;
    for (int i = 0; i < NWORKERS; i++)
        total += results[i]; // RACE: a consequence of the unlocked wait
    printf("%ld %s\n", total, names[0]); // RACE: likewise
    return 0;
}
