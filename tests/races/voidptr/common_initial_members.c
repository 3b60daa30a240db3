/* Requests of two kinds behind one `void *` slot: a job and a probe. Both begin
 * with `long id` and `int kind`, then differ: a job has a callback and a count
 * of its runs, a probe a count of its hits. Each worker reads a request's
 * header through the probe's type, as tagged structs are read.
 * - A job's runs are counted under job_m by its callback: NORACE needs=void.
 *   Reading a job's `runs` through a probe would read an object through an
 *   incompatible type, so past their common initial members each view keeps
 *   its own; with every view of a `void *` one node, the runs were the probe's
 *   unlocked hits.
 * - The callback renumbers its job under job_m while the other worker reads
 *   the `id` through the probe's type without the lock: the members the two
 *   types share are one location, so this RACE is found across the views.
 * - The probe's hits are counted by both workers without a lock: RACE.
 * - An address is written byte by byte through a generic type whose bytes
 *   start where the other type's port is: a character member where the two
 *   types part may view the rest of the other, so the two stay one node and
 *   the write races with the other worker's read of the port: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job { long id; int kind; void (*run)(struct job *); int runs; };
struct probe { long id; int kind; long hits; };
struct addr_any { short family; char data[14]; };
struct addr_in { short family; unsigned short port; unsigned int ip; };

static pthread_mutex_t job_m = PTHREAD_MUTEX_INITIALIZER;

static void count_run(struct job *j)
{
    pthread_mutex_lock(&job_m);
    j->runs++; // NORACE needs=void: job_m held, and `runs` is past the members a probe shares
    j->id += 2; // RACE: the other worker reads the id through the probe's type without job_m
    pthread_mutex_unlock(&job_m);
}

static void *requests[2];
static void *addrs[1];

static void *worker(void *arg)
{
    struct addr_any *any = addrs[0];
    struct addr_in *in = addrs[0];
    if (arg)
        any->data[0] = 1; // RACE: the bytes of the port the other worker reads
    else
        printf("%u\n", in->port); // RACE: written through the generic type's bytes
    for (int i = 0; i < 2; i++) {
        struct probe *head = requests[i];
        if (head->id < 0) // RACE: renumbered by the job's callback under job_m
            return NULL;
        if (head->kind == 0) {
            struct job *j = requests[i];
            j->run(j);
        } else {
            head->hits++; // RACE: both workers, no lock
        }
    }
    return NULL;
}

int main(void)
{
    struct job *job = calloc(1, sizeof *job);
    struct probe *probe = calloc(1, sizeof *probe);
    struct addr_in *peer = calloc(1, sizeof(struct addr_any));
    if (!job || !probe || !peer)
        return 1;
    job->run = count_run;
    probe->kind = 1;
    requests[0] = job;
    requests[1] = probe;
    addrs[0] = peer;
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, (void *)1);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld\n", job->runs, probe->hits);
    return 0;
}
