/* A reader thread started by the first request, answering requests on buffers each caller
 * allocates: the buffers flow through `send`'s parameter into the queue, so the reader's add
 * is an access to every caller's buffer. `ask` touches its buffer only under the lock; `post`
 * writes its buffer with no lock after queueing its request, while the reader may be adding
 * to it. The answer is awaited on a semaphore, which orders nothing `post` does after queueing
 * before what the reader does. */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

struct req {
    long *reply;
    sem_t answered;
    struct req *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static struct req *queue;
static int started;

static void *read_loop(void *arg)
{
    pthread_mutex_lock(&mu);
    for (;;) {
        struct req *r;
        while (queue == NULL)
            pthread_cond_wait(&more, &mu);
        r = queue;
        queue = r->next;
        *r->reply += 1; // RACE: with post's write before it waits
        sem_post(&r->answered);
    }
    return arg;
}

/* Queues a request on `reply`, starting the reader first if it is not running. */
static struct req *send(long *reply)
{
    struct req *r = malloc(sizeof *r);

    r->reply = reply;
    sem_init(&r->answered, 0, 0);
    pthread_mutex_lock(&mu);
    if (!started) {
        pthread_t reader;
        started = 1;
        pthread_create(&reader, NULL, read_loop, NULL);
        pthread_detach(reader);
    }
    r->next = queue;
    queue = r;
    pthread_cond_signal(&more);
    pthread_mutex_unlock(&mu);
    return r;
}

static void *ask(void *arg)
{
    long *buf = malloc(sizeof *buf);

    pthread_mutex_lock(&mu);
    *buf = 0; // NORACE: under the lock
    pthread_mutex_unlock(&mu);
    sem_wait(&send(buf)->answered);
    pthread_mutex_lock(&mu);
    arg = (void *)*buf; // NORACE: under the lock the reader holds
    pthread_mutex_unlock(&mu);
    return arg;
}

static void *post(void *arg)
{
    long *buf = malloc(sizeof *buf);
    struct req *r = send(buf);

    *buf = 7; // RACE: the reader may be adding to it
    sem_wait(&r->answered);
    return arg;
}

int main(void)
{
    pthread_t a, b;

    pthread_create(&a, NULL, ask, NULL);
    pthread_create(&b, NULL, post, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
