/* A thread library that keeps every thread it starts in a list: spawn()
 * creates a thread into a fresh node and pushes the node onto `roster`, and
 * reap_all() joins and unlinks nodes until it sees the list empty. Where it
 * does, every thread spawned so far has been joined, however many there were
 * and in whatever round: main's unlocked reads of `total` after reap_all()
 * are NORACE needs=joins, and so are the tasks' updates, which hold `mu` only
 * among themselves. The `stray` thread is started without the library, into
 * no list: main's read of `stray_work` after reap_all() is a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct node {
    pthread_t tid;
    struct node *link;
};

static struct node *roster;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total, stray_work;

static void spawn(void *(*fn)(void *), void *arg)
{
    struct node *n = malloc(sizeof *n);
    pthread_create(&n->tid, NULL, fn, arg);
    n->link = roster;
    roster = n;
}

static void reap_all(void)
{
    while (roster != NULL) {
        struct node **at = &roster;
        struct node *n = *at;
        pthread_join(n->tid, NULL);
        *at = n->link;
        free(n);
    }
}

static void *task(void *arg)
{
    pthread_mutex_lock(&mu);
    total += (long)arg; // NORACE needs=joins
    pthread_mutex_unlock(&mu);
    return NULL;
}

static void *stray(void *arg)
{
    (void)arg;
    usleep(20000);
    stray_work = 1; // RACE
    return NULL;
}

int main(void)
{
    pthread_t s;
    long seen = 0;
    pthread_create(&s, NULL, stray, NULL);
    for (int round = 0; round < 3; round++) {
        for (long i = 0; i < 4; i++)
            spawn(task, (void *)i);
        reap_all();
        seen += total; // NORACE needs=joins
    }
    printf("%ld %ld\n", seen, stray_work); // RACE
    pthread_join(s, NULL);
    return 0;
}
