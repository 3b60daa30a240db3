/* A thread library in yarn's shape: each thread spawn() starts is kept in a
 * node of `roster`, every write of which holds `lib.mu` (through the wrappers
 * hold and let_go). A thread that ends marks its node done and moves it to the
 * head; main waits for a done node, joins and unlinks it, until it sees the
 * list empty, holding `lib.mu`. Threads only reorder the list under the mutex
 * the test holds, so there every thread started into it is joined: main's
 * reads of `total` and the workers' writes under `mu` are NORACE needs=joins.
 * `late`, started into no list, and main's read of `late_work` are a RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct lock { pthread_mutex_t mu; pthread_cond_t cv; long done; };
struct node { pthread_t tid; int done; struct node *link; };

static struct lock lib = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
static struct node *roster;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total, late_work, seen;
static void hold(struct lock *l) { pthread_mutex_lock(&l->mu); }
static void let_go(struct lock *l) { pthread_mutex_unlock(&l->mu); }

static void spawn(void *(*fn)(void *), void *arg)
{
    hold(&lib);
    struct node *n = calloc(1, sizeof *n);
    if (n == NULL)
        abort();
    pthread_create(&n->tid, NULL, fn, arg);
    n->link = roster;
    roster = n;
    let_go(&lib);
}

static void *work(void *arg)
{
    struct node **at = &roster, *n;
    pthread_mutex_lock(&mu);
    total += (long)arg; // NORACE needs=joins
    pthread_mutex_unlock(&mu);
    hold(&lib);
    while ((n = *at) != NULL && !pthread_equal(n->tid, pthread_self()))
        at = &n->link;
    n->done = 1;
    *at = n->link;
    n->link = roster;
    roster = n;
    lib.done++;
    pthread_cond_broadcast(&lib.cv);
    let_go(&lib);
    return NULL;
}
static void *late(void *arg) { usleep(20000); late_work = (long)arg; return NULL; } // RACE
int main(void)
{
    pthread_t s;
    pthread_create(&s, NULL, late, NULL);
    for (int round = 0; round < 3; round++) {
        for (long i = 0; i < 4; i++)
            spawn(work, (void *)i);
        hold(&lib);
        while (roster != NULL) {
            struct node **at = &roster, *n;
            while (lib.done == 0)
                pthread_cond_wait(&lib.cv, &lib.mu);
            while ((n = *at) != NULL && !n->done)
                at = &n->link;
            pthread_join(n->tid, NULL);
            lib.done--;
            *at = n->link;
            free(n);
        }
        let_go(&lib);
        seen += total; // NORACE needs=joins
    }
    printf("%ld %ld\n", seen, late_work); // RACE
    pthread_join(s, NULL);
    return 0;
}
