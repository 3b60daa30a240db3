// Jobs are initialised without a lock and then published to a queue under the queue's lock;
// consumers take a job off the queue and update it under the job's own lock, while the
// producer keeps polling the jobs it made under the same per-job lock.
#include <pthread.h>
#include <stdlib.h>

struct job {
    pthread_mutex_t lock;
    int state;
    int result;
    struct job *next;
};

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static struct job *queue;

static struct job *take(void) {
    pthread_mutex_lock(&qlock);
    struct job *j = queue; // NORACE
    if (j != NULL)
        queue = j->next; // NORACE
    pthread_mutex_unlock(&qlock);
    return j;
}

static void *consumer(void *arg) {
    (void)arg;
    struct job *j;
    while ((j = take()) != NULL) {
        pthread_mutex_lock(&j->lock);
        j->result = j->state * 2; // NORACE needs=existentials
        j->state = 2; // NORACE needs=existentials
        pthread_mutex_unlock(&j->lock);
    }
    return NULL;
}

int main(void) {
    struct job *mine[8];
    for (int i = 0; i < 8; i++) {
        struct job *j = malloc(sizeof *j);
        pthread_mutex_init(&j->lock, NULL);
        j->state = 1; // NORACE: initialised before it is published
        j->result = 0; // NORACE: initialised before it is published
        mine[i] = j;
        pthread_mutex_lock(&qlock);
        j->next = queue; // NORACE
        queue = j; // NORACE
        pthread_mutex_unlock(&qlock);
    }
    pthread_t a, b;
    pthread_create(&a, NULL, consumer, NULL);
    pthread_create(&b, NULL, consumer, NULL);
    int finished = 0;
    for (int i = 0; i < 8; i++) {
        struct job *j = mine[i];
        pthread_mutex_lock(&j->lock);
        finished += j->state == 2; // NORACE needs=existentials
        pthread_mutex_unlock(&j->lock);
    }
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return finished < 0;
}
