/* A struct of numbers filled field by field and then handed on as another type (a
 * `struct sockaddr_in` cast to the `struct sockaddr *` that `connect` takes, a record cast to
 * bytes for `write`): the two views of one object are one conflated object, and with no
 * pointer inside it is still only as shared as the object itself. Each worker's stack
 * address and heap record are its own: NORACE (every one of them was shared by all threads).
 * Both workers fill the one global `server` and the record `main` hands to both: RACE (before
 * any descriptor is made: ThreadSanitizer orders a `close` before a `socket` that reuses its
 * number, so the workers keep theirs open). */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct record {
    unsigned id;
    unsigned short port;
    unsigned char flags[2];
};

static struct sockaddr_in server;

static void *worker(void *arg)
{
    struct record *shared = arg;
    struct sockaddr_in local;
    struct record *mine = malloc(sizeof *mine);
    int fd, out;
    server.sin_port = htons(10); // RACE
    shared->port = 11; // RACE
    fd = socket(AF_INET, SOCK_STREAM, 0);
    out = open("/dev/null", O_WRONLY);
    if (mine == NULL)
        return NULL;
    memset(&local, 0, sizeof local); // NORACE
    local.sin_family = AF_INET; // NORACE
    local.sin_port = htons(9); // NORACE
    local.sin_addr.s_addr = htonl(INADDR_LOOPBACK); // NORACE
    connect(fd, (struct sockaddr *)&local, sizeof local); // NORACE
    mine->id = 7; // NORACE
    mine->port = 9; // NORACE
    write(out, (char *)mine, sizeof *mine); // NORACE
    free(mine); // NORACE
    bind(fd, (struct sockaddr *)&server, sizeof server);
    write(out, (char *)shared, sizeof *shared); // RACE
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    struct record *both = calloc(1, sizeof *both);
    if (both == NULL)
        return 1;
    pthread_create(&a, NULL, worker, both);
    pthread_create(&b, NULL, worker, both);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    free(both);
    return 0;
}
