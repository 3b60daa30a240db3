/* pthread_atfork's handlers run in the thread that forks, around the fork: the classic pair takes
 * a mutex before and releases it after, so that the child never inherits it held mid-update.
 * Their counts are made holding it (NORACE), as are the workers' own after the fork; the
 * workers also count without it: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long forks, unlocked;

static void before_fork(void)
{
    pthread_mutex_lock(&lock);
    forks++; // NORACE
}

static void after_fork(void)
{
    forks++; // NORACE
    pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    if (child > 0)
        waitpid(child, NULL, 0);
    pthread_mutex_lock(&lock);
    forks++; // NORACE
    pthread_mutex_unlock(&lock);
    unlocked++; // RACE
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_atfork(before_fork, after_fork, NULL);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", forks, unlocked); // NORACE
    return 0;
}
