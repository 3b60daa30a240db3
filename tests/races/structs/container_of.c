/* A pointer to a struct member turned back into a pointer to the enclosing
 * struct reaches the struct's other fields. The worker gets `&conns.link`
 * and steps back to `conns` with the usual container_of; `conns.state` is
 * then written by the worker and by main with no lock: RACE on both. The
 * second worker gets `&jobs.first`, the first member, and casts it back to
 * `struct job *`: `jobs.count` is written by it and by main with no lock:
 * RACE on both. `conns.served` is written by both holding `served_m`:
 * NORACE. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#define container_of(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))

struct link {
    struct link *next;
};

struct conn {
    int state;
    long served;
    struct link link;
};

struct head {
    int id;
};

struct job {
    struct head first;
    int count;
};

pthread_mutex_t served_m = PTHREAD_MUTEX_INITIALIZER;
struct conn conns;
struct job jobs;

static void *conn_worker(void *arg)
{
    struct link *l = arg;
    struct conn *c = container_of(l, struct conn, link);
    c->state = 1; // RACE: main writes conns.state too
    pthread_mutex_lock(&served_m);
    c->served++; // NORACE: served_m held
    pthread_mutex_unlock(&served_m);
    return NULL;
}

static void *job_worker(void *arg)
{
    struct job *j = (struct job *)(struct head *)arg;
    j->count = 1; // RACE: main writes jobs.count too
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, conn_worker, &conns.link);
    pthread_create(&b, NULL, job_worker, &jobs.first);
    conns.state = 2; // RACE: the conn worker writes it through container_of
    jobs.count = 2; // RACE: the job worker writes it through the first member
    pthread_mutex_lock(&served_m);
    conns.served++; // NORACE: served_m held
    pthread_mutex_unlock(&served_m);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", conns.state, jobs.count);
    return 0;
}
