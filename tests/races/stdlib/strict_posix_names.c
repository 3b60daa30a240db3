/* A program that asks for POSIX only (`_POSIX_C_SOURCE`), as many portable programs do: glibc's
 * headers then name members with a reserved prefix (`struct tm`'s `__tm_gmtoff` and
 * `__tm_zone`, `fd_set`'s `__fds_bits`) while the library models use the GNU names; the two
 * are one type. Each worker converts the time into its own stack `struct tm` and waits on its
 * own descriptor set: NORACE. Both copy their result into one global `struct tm` without a
 * lock: RACE. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <sys/select.h>
#include <time.h>

static struct tm last;

static void *worker(void *arg)
{
    time_t now = time(NULL) + (long)arg;
    struct tm utc, local;
    struct timeval none = {0, 0};
    fd_set readable;
    gmtime_r(&now, &utc); // NORACE
    localtime_r(&now, &local); // NORACE
    utc.tm_isdst = local.tm_isdst; // NORACE
    FD_ZERO(&readable);
    FD_SET(0, &readable); // NORACE
    select(1, &readable, NULL, NULL, &none); // NORACE
    last = utc; // RACE
    return FD_ISSET(0, &readable) ? arg : NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d\n", last.tm_year);
    return 0;
}
