/* A connection record, fresh from malloc, that `main` fills partly through library calls
 * given pointers into it (`getsockname(fd, (struct sockaddr *)&c->local, &c->len)`, as an
 * accept loop does) and then hands to its own thread: those calls only write through the
 * pointers, keep none of them, so the record is still unpublished when the thread starts and
 * is that thread's alone: NORACE (every field was reported: a pointer handed to a library
 * stub counted as kept). Every thread also counts into `served` without a lock: RACE. */
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct conn {
    int fd;
    socklen_t len;
    struct sockaddr_in local;
    char buf[64];
};

static int served;

static void *serve(void *arg)
{
    struct conn *c = arg;
    snprintf(c->buf, sizeof c->buf, "%d %u", c->fd, (unsigned)c->len); // NORACE needs=uniqueness
    c->local.sin_port = 0; // NORACE needs=uniqueness
    served++; // RACE
    close(c->fd); // NORACE needs=uniqueness
    free(c);
    return NULL;
}

int main(void)
{
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) {
        struct conn *c = malloc(sizeof *c);
        if (c == NULL)
            return 1;
        c->fd = socket(AF_INET, SOCK_DGRAM, 0); // NORACE needs=uniqueness
        c->len = sizeof c->local; // NORACE needs=uniqueness
        memset(&c->local, 0, sizeof c->local);
        getsockname(c->fd, (struct sockaddr *)&c->local, &c->len);
        pthread_create(&threads[i], NULL, serve, c);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    printf("%d\n", served);
    return 0;
}
