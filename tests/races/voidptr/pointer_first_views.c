/* Structs that begin with pointers, behind one void*. An object's `impl` holds
 * either a dict (its first member points to its hash type) or a list (its
 * first member points to a node). The two cannot be read as each other: their
 * first members point to different types. So the list's `free_fn`, which the
 * workers call, is never the dict type's `hash`, which only main calls:
 * `hash_calls` is main's alone, NORACE. needs=void: with every view of a void*
 * conflated, the list and the dict are one blob and every function stored in
 * it is a callee of every call through it.
 * A job's `body` is a task whose first member points to its operations; the
 * runners read that member through a generic header whose first member is a
 * `void *`, which may point to anything, so the header and the task stay one:
 * both runners call `run_task`, which counts without a lock: RACE. */
#include <pthread.h>
#include <stddef.h>

struct lnode { struct lnode *next; };
struct dtype { void (*hash)(void); };
struct dict { struct dtype *type; int used; };
struct list { struct lnode *head; void (*free_fn)(void *); };
struct obj { int kind; void *impl; };

struct ops { void (*run)(void); };
struct task { struct ops *ops; int id; };
struct header { void *first; };
struct job { void *body; };

int hash_calls;
long runs;

static void hash_plain(void) { hash_calls++; } // NORACE needs=void: only main calls it
static void list_free(void *p) { (void)p; }
static void run_task(void) { runs++; } // RACE: both runners count without a lock

static struct dtype plain = { hash_plain };
static struct dict d = { &plain, 0 };
static struct list l = { NULL, list_free };
static struct obj objs[2];
static struct ops task_ops = { run_task };
static struct task the_task = { &task_ops, 7 };
static struct job the_job;

static void *worker(void *arg)
{
    struct obj *o = arg;
    if (o->kind == 1) {
        struct list *li = o->impl;
        li->free_fn(li);
    }
    return NULL;
}

static void *runner(void *arg)
{
    struct job *j = arg;
    struct header *h = j->body;
    struct ops *ops = h->first;
    ops->run();
    return NULL;
}

int main(void)
{
    pthread_t t1, t2, r1, r2;
    objs[0].kind = 0;
    objs[0].impl = &d;
    objs[1].kind = 1;
    objs[1].impl = &l;
    the_job.body = &the_task;
    pthread_create(&t1, NULL, worker, &objs[1]);
    pthread_create(&t2, NULL, worker, &objs[1]);
    pthread_create(&r1, NULL, runner, &the_job);
    pthread_create(&r2, NULL, runner, &the_job);
    struct dict *dd = objs[0].impl;
    dd->type->hash();
    hash_calls++; // NORACE needs=void: the workers never call hash_plain
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    return 0;
}
