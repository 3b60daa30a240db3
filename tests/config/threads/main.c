/* Tasks of an embedded runtime: task_spawn(&task, run, arg) hands run(arg) to the runtime's
 * scheduler through its trap gate, and task_wait(task, &status) waits for the task to end.
 * Both are inline assembly, so without locksmith.toml locksmith never sees `count` run as a
 * thread and misses the race on `hits`. The configuration makes task_spawn a thread creation
 * and task_wait a join (their bodies are then not analysed): the race between the two tasks is
 * found, and the read after both joins is ordered. (The trap gate belongs to the runtime; this
 * file is for locksmith, not for running on a hosted system.) */
#include <stdio.h>

typedef int task_t;

int task_spawn(task_t *task, void (*run)(void *), void *arg)
{
    int err;
    __asm__ __volatile__("int $0x81" : "=a"(err), "=m"(*task) : "D"(run), "S"(arg) : "memory");
    return err;
}

int task_wait(task_t task, int *status)
{
    int err;
    __asm__ __volatile__("int $0x82" : "=a"(err), "=m"(*status) : "D"(task) : "memory");
    return err;
}

static long hits;
static long total;

static void count(void *arg)
{
    (void)arg;
    hits++; // RACE: both tasks increment it at the same time
}

int main(void)
{
    task_t first, second;
    int status;
    task_spawn(&first, count, NULL);
    task_spawn(&second, count, NULL);
    task_wait(first, &status);
    task_wait(second, &status);
    total = hits; // NORACE: both tasks have been joined
    printf("%ld\n", total);
    return 0;
}
