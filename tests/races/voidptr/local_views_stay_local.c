/* Two views of one object (a struct sockaddr_in passed as a struct sockaddr *) are one
 * location, and it is as shared as the object: each worker's own `peer`, which accept fills
 * through the other view, is that thread's alone (NORACE), while main's `common`, handed to
 * both helpers as a struct sockaddr *, is written by both (RACE). */
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static void *worker(void *arg)
{
    struct sockaddr_in peer;
    socklen_t len = sizeof peer;
    int fd = accept(-1, (struct sockaddr *)&peer, &len); // NORACE
    if (fd >= 0)
        close(fd);
    return arg;
}

static void *helper(void *arg)
{
    struct sockaddr *sa = arg;
    sa->sa_family = AF_INET; // RACE
    return NULL;
}

int main(void)
{
    pthread_t w1, w2, h1, h2;
    struct sockaddr_in common;
    pthread_create(&w1, NULL, worker, NULL);
    pthread_create(&w2, NULL, worker, NULL);
    pthread_create(&h1, NULL, helper, (struct sockaddr *)&common);
    pthread_create(&h2, NULL, helper, (struct sockaddr *)&common);
    pthread_join(w1, NULL);
    pthread_join(w2, NULL);
    pthread_join(h1, NULL);
    pthread_join(h2, NULL);
    printf("%d\n", common.sin_family);
    return 0;
}
