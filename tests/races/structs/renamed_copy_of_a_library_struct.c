/* A struct declared again under another tag with the same members (as tools
 * that merge a program into one file rename the copies: fd_set___0) is the
 * same type. Each worker polls with its own local copy of fd_set, passed to
 * select() through a cast: the two locals are not shared (NORACE), where
 * before the renamed type made the library's fd_set memory one conflated
 * location shared by both threads. `polls` is counted by both without a
 * lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <sys/select.h>
#include <unistd.h>

#define ROUNDS 500

struct my_fd_set {
    __fd_mask __fds_bits[__FD_SETSIZE / __NFDBITS];
};

long polls;

static void *worker(void *arg)
{
    int fds[2];
    if (pipe(fds) != 0)
        return arg;
    for (int i = 0; i < ROUNDS; i++) {
        struct my_fd_set ready;
        struct timeval none = {0, 0};
        FD_ZERO((fd_set *)&ready);
        FD_SET(fds[0], (fd_set *)&ready);
        select(fds[0] + 1, (fd_set *)&ready, NULL, NULL, &none);
        if (ready.__fds_bits[0] != 0) // NORACE: each thread's own local
            puts("ready");
        polls++; // RACE: both workers, no lock
    }
    close(fds[0]);
    close(fds[1]);
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", polls);
    return 0;
}
