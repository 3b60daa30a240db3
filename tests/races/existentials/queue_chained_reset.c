/* A work queue whose head and tail main empties with one chained assignment, `head = tail =
 * NULL`: its value is the null pointer stored, so no second read of `tail` stores into the
 * head, and the tasks handed through the queue stay owned by one thread at a time: NORACE.
 * `done`, which each worker adds to without a lock as it leaves, races. Before, the chained
 * assignment was lowered as `tail = NULL; head = tail`, a store into the head of a pointer
 * nobody owns, and every task field was reported. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
    int n;
    long square;
    struct task *next;
};

static struct task *head, *tail;
static int stop;
static long done, total;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        struct task *t;
        pthread_mutex_lock(&m);
        while (head == NULL && !stop)
            pthread_cond_wait(&more, &m);
        t = head;
        if (t == NULL) {
            pthread_mutex_unlock(&m);
            done++; // RACE
            return NULL;
        }
        head = t->next;
        if (head == NULL)
            tail = NULL;
        pthread_mutex_unlock(&m);
        t->square = (long)t->n * t->n; // NORACE needs=existentials
        pthread_mutex_lock(&m);
        total += t->square; // NORACE needs=existentials
        pthread_mutex_unlock(&m);
        free(t);
    }
}

int main(void)
{
    pthread_t w[2];
    int i;
    head = tail = NULL;
    for (i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, worker, NULL);
    for (i = 0; i < 8; i++) {
        struct task *t = malloc(sizeof *t);
        if (t == NULL)
            abort();
        t->n = i; // NORACE needs=uniqueness
        t->next = NULL;
        pthread_mutex_lock(&m);
        if (tail != NULL)
            tail->next = t;
        else
            head = t;
        tail = t;
        pthread_cond_signal(&more);
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_lock(&m);
    stop = 1;
    pthread_cond_broadcast(&more);
    pthread_mutex_unlock(&m);
    for (i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    printf("%ld %ld\n", done, total);
    return 0;
}
