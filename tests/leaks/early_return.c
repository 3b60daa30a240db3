/* Lock leaks at returns. `enqueue` returns early when the queue is full without releasing the
 * queue's lock: LEAK on that return (the next caller blocks forever). The others are by design:
 * `queue_lock` returns holding the lock on every path (a lock wrapper), `queue_peek` returns
 * before it takes the lock, `queue_drop` returns when the lock call failed (the lock is not
 * held then), `queue_try` holds the lock only when its try-lock succeeded (its result says
 * so), and `dequeue` releases on every path. */
#include <pthread.h>
#include <stdio.h>

#define SIZE 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int items[SIZE];
static int count;

static int enqueue(int x)
{
    pthread_mutex_lock(&lock); // NOLEAK
    if (count == SIZE)
        return -1; // LEAK
    items[count++] = x;
    pthread_mutex_unlock(&lock);
    return 0; // NOLEAK
}

static int dequeue(void)
{
    pthread_mutex_lock(&lock);
    if (count == 0) {
        pthread_mutex_unlock(&lock);
        return -1; // NOLEAK
    }
    int x = items[--count];
    pthread_mutex_unlock(&lock);
    return x; // NOLEAK
}

static void queue_lock(void)
{
    pthread_mutex_lock(&lock);
} // NOLEAK

static int *queue_peek(int *out)
{
    if (out == NULL)
        return NULL; // NOLEAK
    pthread_mutex_lock(&lock);
    *out = count ? items[count - 1] : -1;
    return out; // NOLEAK
}

static int queue_drop(void)
{
    if (pthread_mutex_lock(&lock) != 0)
        return -1; // NOLEAK
    count = 0;
    pthread_mutex_unlock(&lock);
    return 0; // NOLEAK
}

static int queue_try(void)
{
    if (pthread_mutex_trylock(&lock) != 0)
        return 0; // NOLEAK
    return 1; // NOLEAK
}

static void *producer(void *arg)
{
    for (int i = 0; i < 4; i++)
        enqueue(i);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    pthread_join(t, NULL);
    int top;
    queue_lock();
    pthread_mutex_unlock(&lock);
    if (queue_peek(&top))
        pthread_mutex_unlock(&lock);
    if (queue_try())
        pthread_mutex_unlock(&lock);
    queue_drop();
    printf("%d %d\n", dequeue(), top);
    return 0;
}
