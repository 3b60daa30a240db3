/* main leaves starting and waiting for the workers to start_workers, which it
 * calls once: a counter join there (each worker counts itself down under
 * `count_lock`; start_workers waits for zero) ends the workers as it does in
 * main, so main's reads of `sum` after the call are NORACE needs=joins. A
 * loader thread started once by start_workers posts `loaded` once its table
 * is built; start_workers waits for that post, so its read of `table[3]` is
 * NORACE needs=sharing, and so are main's after start_workers returns. The
 * loader writes `generation` after its post, and the workers write `last_id`
 * unlocked: both RACE. await_extra returns without waiting for its loader's
 * post on one path, so main's read of `extra` after it stays RACE. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

#define NWORKERS 4

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_done = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static int running;
static long sum, last_id;
static int table[8];
static int generation;
static int extra;
static int quick;
static sem_t loaded, extra_loaded;

static void *worker(void *arg)
{
    long id = (long)arg;
    last_id = id; // RACE: every worker writes it unlocked
    pthread_mutex_lock(&sum_lock);
    sum += id; // NORACE needs=joins: under sum_lock among workers; main reads it after the wait
    pthread_mutex_unlock(&sum_lock);
    pthread_mutex_lock(&count_lock);
    running--;
    pthread_mutex_unlock(&count_lock);
    pthread_cond_signal(&all_done);
    return NULL;
}

static void *loader(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++)
        table[i] = i * i; // NORACE needs=sharing: start_workers reads table[3] after the post
    sem_post(&loaded);
    generation = 1; // RACE: after the post, while start_workers reads it
    return NULL;
}

static void *extra_loader(void *arg)
{
    (void)arg;
    extra = 7; // RACE: await_extra does not wait when `quick` is set
    sem_post(&extra_loaded);
    return NULL;
}

static void await_extra(void)
{
    if (quick)
        return;
    sem_wait(&extra_loaded);
}

static int start_workers(void)
{
    pthread_t t;
    sem_init(&loaded, 0, 0);
    pthread_create(&t, NULL, loader, NULL);
    pthread_detach(t);
    running = NWORKERS;
    for (long i = 0; i < NWORKERS; i++) {
        pthread_create(&t, NULL, worker, (void *)i);
        pthread_detach(t);
    }
    pthread_mutex_lock(&count_lock);
    while (running > 0)
        pthread_cond_wait(&all_done, &count_lock);
    pthread_mutex_unlock(&count_lock);
    sem_wait(&loaded);
    int later = generation; // RACE: the loader may still write it
    return table[3] + later; // NORACE needs=sharing: after the loader's post
}

int main(void)
{
    quick = getpid() > 0;
    int found = start_workers();
    printf("%ld %ld %d\n", sum, last_id, found); // NORACE needs=joins: after the counter join
    printf("%d\n", table[5]); // NORACE needs=sharing: start_workers waited for the post
    pthread_t t;
    sem_init(&extra_loaded, 0, 0);
    pthread_create(&t, NULL, extra_loader, NULL);
    pthread_detach(t);
    usleep(20000);
    await_extra();
    printf("%d\n", extra); // RACE: await_extra may return without waiting
    return 0;
}
