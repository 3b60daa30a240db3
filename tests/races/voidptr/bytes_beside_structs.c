/* Bytes beside structs behind one void*. A table of `void *` slots holds a
 * string, a job and a statistics record; one accessor hands out every slot.
 * The string is written byte by byte, yet its bytes are not the other two
 * objects: the workers' call through the job's `run` never reaches the
 * record's `report`, which only main calls, so `reports` is main's alone:
 * NORACE. needs=void: with every view of a void* conflated, the three are
 * one blob and every function stored in it is a callee of the job's call.
 * Bytes still carry pointers: each worker copies a task byte by byte into
 * its own struct and counts through the copied pointer, without a lock:
 * RACE on the shared counter. The copy itself only writes each worker's own
 * struct, but the two objects of one byte copy are one location, as they
 * were when the copy made them one blob, and the counter the copied pointer
 * reaches is named with them: FALSE-ALARM. */
#include <pthread.h>
#include <stddef.h>

struct job { struct job *next; void (*run)(struct job *); int id; };
struct stat_rec { double total; void (*report)(void); };
struct task { long *counter; int id; };

long reports;
long shared_count;
static char name[16] = "idle";
static void *slots[3];

static void run_job(struct job *j) { (void)j; }
static void report(void) { reports++; } // NORACE needs=void: only main reports

static struct job the_job = { NULL, run_job, 1 };
static struct stat_rec the_stats = { 0.0, report };
static struct task template_task = { &shared_count, 7 };

static void *slot_get(int i) { return slots[i]; }

static void copy_bytes(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    while (n--)
        *d++ = *s++; // FALSE-ALARM: the source and the copy are one location
}

static void *worker(void *arg)
{
    struct job *j = slot_get(1);
    struct task t;
    (void)arg;
    j->run(j);
    copy_bytes(&t, &template_task, sizeof t);
    (*t.counter)++; // RACE: both workers count through the copied pointer
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    slots[0] = name;
    slots[1] = &the_job;
    slots[2] = &the_stats;
    char *s = slot_get(0);
    s[0] = 'I';
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    struct stat_rec *r = slot_get(2);
    r->report();
    reports++; // NORACE needs=void: the workers never call report
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
