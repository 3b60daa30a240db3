/* A counter join: main sets the number of running workers before starting
 * them, and each worker, as the last thing it does, counts itself down under
 * `count_lock` and signals `all_done`. main waits under the same lock until
 * the count is zero; from then on no worker runs, so main's unlocked reads of
 * what the workers wrote are NORACE needs=joins. Before the wait the workers
 * still run: main's read of `progress` there races with their updates (RACE),
 * and the workers' unlocked updates of `last_id` race with each other. */
#include <pthread.h>
#include <stdio.h>

#define NWORKERS 4

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_done = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static int running;
static long sum;
static long progress;
static long last_id;
static int nworkers = NWORKERS;

static void *worker(void *arg)
{
    long id = (long)arg;
    pthread_mutex_lock(&sum_lock);
    sum += id; // NORACE needs=joins: under sum_lock among workers; main reads it after the wait
    progress++; // RACE: main reads progress before waiting
    pthread_mutex_unlock(&sum_lock);
    last_id = id; // RACE: every worker writes it unlocked
    pthread_mutex_lock(&count_lock);
    running--;
    pthread_mutex_unlock(&count_lock);
    pthread_cond_signal(&all_done);
    return NULL;
}

int main(void)
{
    pthread_t t;
    running = nworkers;
    for (long i = 0; i < nworkers; i++) {
        pthread_create(&t, NULL, worker, (void *)i);
        pthread_detach(t);
    }
    printf("progress so far %ld\n", progress); // RACE: the workers still run
    pthread_mutex_lock(&count_lock);
    while (running > 0)
        pthread_cond_wait(&all_done, &count_lock);
    pthread_mutex_unlock(&count_lock);
    printf("%ld %ld\n", sum, last_id);
    return 0;
}
