/* Locks taken through a table of methods, as a database engine picks its mutex implementation
 * once: `mutex_api.enter(&m)` calls through a member of a global struct that only ever holds
 * `real_enter`. The call is a direct call of it, so each account, allocated in a loop with its
 * own mutex, is updated holding its own lock (NORACE; reported while the call through the
 * member was typed with the pointer's one instance of `real_enter`, whose lock was every
 * caller's). The tracing table's `enter` is chosen at run time between `real_enter` and a
 * no-op (it is the no-op unless the program is given an argument): the totals updated through
 * it are not protected (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ACCOUNTS 4
#define ITER 1000

struct mutex_methods {
    int (*enter)(pthread_mutex_t *);
    int (*leave)(pthread_mutex_t *);
};

static int real_enter(pthread_mutex_t *m) { return pthread_mutex_lock(m); }
static int real_leave(pthread_mutex_t *m) { return pthread_mutex_unlock(m); }
static int no_op(pthread_mutex_t *m) { (void)m; return 0; }

static struct mutex_methods mutex_api = { real_enter, real_leave };
static struct mutex_methods trace_api = { real_enter, real_leave };

struct account {
    pthread_mutex_t lock;
    long balance;
};

static struct account *accounts[ACCOUNTS];
static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void *teller(void *arg)
{
    long k = (long)arg;
    for (int i = 0; i < ITER; i++) {
        struct account *a = accounts[(k + i) % ACCOUNTS];
        mutex_api.enter(&a->lock);
        a->balance++; // NORACE needs=existentials
        mutex_api.leave(&a->lock);
        trace_api.enter(&totals_lock);
        total++; // RACE: the tracing table's enter is a no-op
        trace_api.leave(&totals_lock);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc < 2) {
        trace_api.enter = no_op;
        trace_api.leave = no_op;
    }
    for (int i = 0; i < ACCOUNTS; i++) {
        accounts[i] = malloc(sizeof *accounts[i]);
        if (accounts[i] == NULL)
            return 1;
        pthread_mutex_init(&accounts[i]->lock, NULL);
        accounts[i]->balance = 0;
    }
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, teller, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld\n", accounts[0]->balance, total);
    return 0;
}
