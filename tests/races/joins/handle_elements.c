/* Handles of a thread library kept in elements of a local array by constant indexes:
 * `tasks[0] = task_start(…)` is a create of the id in the object `tasks[0]` points to, and
 * `task_join(tasks[0])` a join of it, as for a handle kept in a variable, since nothing but
 * its one assignment writes that element. The loader's result is main's after its join
 * (NORACE; reported while only handles in variables or in arrays by a loop's index were
 * followed); the reporter is joined only after main's update of `reports` (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task { pthread_t id; };

static long loaded, reports;

static void *load(void *arg) { loaded = 7; return arg; }
static void *report(void *arg) { reports++; return arg; } // RACE: main updates it before the join

static struct task *task_start(void *(*routine)(void *))
{
    struct task *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    if (pthread_create(&t->id, NULL, routine, NULL) != 0)
        exit(1);
    return t;
}

static void task_join(struct task *t)
{
    pthread_join(t->id, NULL);
    free(t);
}

int main(void)
{
    struct task *tasks[2];
    tasks[0] = task_start(load);
    tasks[1] = task_start(report);
    task_join(tasks[0]);
    printf("%ld\n", loaded); // NORACE needs=joins: the loader was joined
    reports++; // RACE: the reporter may still run
    task_join(tasks[1]);
    printf("%ld\n", reports); // NORACE: joined
    return 0;
}
