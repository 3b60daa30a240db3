/* An event loop thread waits in epoll_wait for what the main thread registers with epoll_ctl
 * after starting it. The kernel keeps the interest list and synchronises it, and each call's
 * struct epoll_event is its caller's own: NORACE on both calls. The registered task reaches
 * the loop through the kernel, and the loop and main both count on it without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

struct task {
    int fd;
    long seen;
};

static int epfd;

static void *loop(void *arg)
{
    struct epoll_event ready[4];
    int n = epoll_wait(epfd, ready, 4, 2000); // NORACE
    for (int i = 0; i < n; i++) {
        struct task *t = ready[i].data.ptr; // NORACE
        t->seen++; // RACE
    }
    return arg;
}

int main(void)
{
    int pipes[2];
    pthread_t t;
    struct epoll_event ev;
    struct task *task = calloc(1, sizeof *task);
    if (task == NULL || pipe(pipes) != 0)
        return 1;
    epfd = epoll_create1(0);
    task->fd = pipes[0];
    pthread_create(&t, NULL, loop, NULL);
    ev.events = EPOLLIN;
    ev.data.ptr = task; // NORACE
    epoll_ctl(epfd, EPOLL_CTL_ADD, pipes[0], &ev); // NORACE
    if (write(pipes[1], "x", 1) != 1)
        return 1;
    task->seen++; // RACE
    pthread_join(t, NULL);
    printf("%ld\n", task->seen);
    free(task);
    return 0;
}
