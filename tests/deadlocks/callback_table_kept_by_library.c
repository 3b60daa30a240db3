/* Each connection has a table of operations the program fills at start-up, and the connection
 * is handed to a library (through a `void *`, with a function to call back) that keeps it. The
 * workers call `ops->add` holding `stats_lock`; `conn_total`, which takes `stats_lock` itself,
 * sits in the table's other entry and is called by main only after the workers are joined.
 * The library does not know `struct conn_ops` (the program defines it), so it never stores into
 * the table: `ops->add` calls `conn_add` and nothing else, and there is no self-deadlock. */
#include <pthread.h>
#include <stdlib.h>

struct conn_ops {
    void (*add)(void *cookie, int v);
    int (*total)(void *cookie);
};
struct conn {
    const struct conn_ops *ops;
    int val;
};

void lib_watch(void *ctx, void (*ready)(void *));

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static long added;

static void conn_add(void *cookie, int v)
{
    struct conn *c = cookie;
    c->val += v;
    added += v;
}

static int conn_total(void *cookie)
{
    struct conn *c = cookie;
    pthread_mutex_lock(&stats_lock); // NODEADLOCK: only main calls conn_total, holding nothing
    int v = c->val + (int)added;
    pthread_mutex_unlock(&stats_lock);
    return v;
}

static const struct conn_ops conn_ops = { conn_add, conn_total };

static void on_ready(void *ctx)
{
    (void)ctx;
}

static void *worker(void *arg)
{
    struct conn *c = arg;
    pthread_mutex_lock(&stats_lock); // NODEADLOCK: ops->add is conn_add, which takes no lock
    c->ops->add(c, 1);
    pthread_mutex_unlock(&stats_lock);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    struct conn *c = calloc(1, sizeof *c);
    if (!c)
        return 1;
    c->ops = &conn_ops;
    lib_watch(c, on_ready);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, c);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return c->ops->total(c) > 0 ? 0 : 1;
}
