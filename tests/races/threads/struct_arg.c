/* A void* thread argument carrying a struct pointer. main fills both job
 * structs before the first pthread_create; each job points to the same mutex
 * and total. Reading `j->n` is NORACE (written only before the first fork);
 * `*j->total` is updated holding `*j->lock`, which is the single global
 * mutex `tot_m`: NORACE. `last_n` is written by both threads with no lock:
 * RACE. */
#include <pthread.h>
#include <stdio.h>

struct job {
    pthread_mutex_t *lock;
    long *total;
    int n;
};

pthread_mutex_t tot_m = PTHREAD_MUTEX_INITIALIZER;
long total;
int last_n;

static void *worker(void *arg)
{
    struct job *j = arg;
    long local = 0;
    int n = j->n; // NORACE: written by main before the first fork
    last_n = n; // RACE: both threads, no lock
    for (int i = 0; i < n; i++)
        local += i;
    pthread_mutex_lock(j->lock);
    *j->total += local; // NORACE: *j->lock is tot_m for every job
    pthread_mutex_unlock(j->lock);
    return NULL;
}

int main(void)
{
    struct job jobs[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        jobs[i].lock = &tot_m;
        jobs[i].total = &total;
        jobs[i].n = 1000 * (i + 1);
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, worker, &jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&tot_m);
    printf("%ld\n", total); // NORACE: tot_m held
    pthread_mutex_unlock(&tot_m);
    return 0;
}
