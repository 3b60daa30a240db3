/* A thread pool's destroy function joins every worker by a join loop over the pool's block
 * of ids and then frees the pool: what it does after the loop (reading the workers' counts,
 * freeing the block and the pool) is after every worker, since `main`'s call joins the pool's
 * handle: NORACE (the frees were reported against every worker access of the pool). What it
 * does before the loop still runs beside the workers: its unlocked read of `served`, which the
 * workers count up holding the pool's lock: RACE (`main` sleeps before destroying the pool, so
 * that the workers count before that read rather than after its lock). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t more;
    int jobs, served, stop;
    int size;
    pthread_t *threads;
};

static void *work(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop || p->jobs > 0) {
        if (p->jobs > 0) {
            p->jobs--;
            p->served++; // RACE
        } else {
            pthread_cond_wait(&p->more, &p->lock);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static struct pool *pool_create(int n)
{
    struct pool *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->more, NULL);
    p->size = n;
    p->threads = calloc(n, sizeof(pthread_t));
    for (int i = 0; i < p->size; i++)
        pthread_create(&p->threads[i], NULL, work, p);
    return p;
}

static void pool_destroy(struct pool *q)
{
    int early = q->served; // RACE
    pthread_mutex_lock(&q->lock);
    q->stop = 1;
    pthread_cond_broadcast(&q->more);
    pthread_mutex_unlock(&q->lock);
    for (int j = 0; j < q->size; j++)
        pthread_join(q->threads[j], NULL);
    printf("%d %d\n", early, q->served); // NORACE needs=joins
    free(q->threads); // NORACE
    free(q); // NORACE needs=joins
}

int main(void)
{
    struct pool *p = pool_create(3);
    if (p == NULL)
        return 1;
    pthread_mutex_lock(&p->lock);
    p->jobs = 10;
    pthread_cond_broadcast(&p->more);
    pthread_mutex_unlock(&p->lock);
    usleep(20000);
    pool_destroy(p);
    return 0;
}
