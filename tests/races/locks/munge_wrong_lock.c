/* Locks passed as parameters, wrongly: thread `left` calls munge(&L1, &x),
 * thread `right` calls munge(&L2, &x). x is accessed under two different
 * locks: RACE at the access inside munge. y is munged under L2 by `right`
 * and read directly under L2 by `reader`: that direct read is NORACE (y is
 * consistently correlated with L2; x's race does not spread to y). */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t L1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t L2 = PTHREAD_MUTEX_INITIALIZER;
int x, y;

static void munge(pthread_mutex_t *l, int *p)
{
    pthread_mutex_lock(l);
    *p = *p + 1; // RACE: x is reached with L1 and with L2
    pthread_mutex_unlock(l);
}

static void *left(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++)
        munge(&L1, &x);
    return NULL;
}

static void *right(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        munge(&L2, &x);
        munge(&L2, &y);
    }
    return NULL;
}

static void *reader(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&L2);
        seen += y; // NORACE: y always under L2
        pthread_mutex_unlock(&L2);
    }
    return (void *)seen;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, left, NULL);
    pthread_create(&b, NULL, right, NULL);
    pthread_create(&c, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    puts("done");
    return 0;
}
