/* The counterpart of callback_table_kept_by_library.c with a struct the C library defines: two
 * `cookie_io_functions_t` handed to a library (`lib_keep`, through a `void *`), one of them
 * writing with `locked_write`. The library knows the layout of the C library's struct and may
 * store one's `write` in the other, so the worker's call of `io->write` holding `lock` may run
 * `locked_write`, which takes `lock` again: a self-deadlock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

void lib_keep(void *functions);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t written;

static ssize_t locked_write(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    (void)buf;
    pthread_mutex_lock(&lock); // DEADLOCK: the worker may call locked_write holding lock
    written += size;
    pthread_mutex_unlock(&lock);
    return (ssize_t)size;
}

static ssize_t discard(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    (void)buf;
    return (ssize_t)size;
}

static void *worker(void *arg)
{
    cookie_io_functions_t *io = arg;
    pthread_mutex_lock(&lock); /* held while io->write may run locked_write */
    io->write(NULL, "x", 1);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    pthread_t t;
    cookie_io_functions_t *io = calloc(1, sizeof *io);
    if (!io)
        return 1;
    static cookie_io_functions_t logged = { .write = locked_write };
    io->write = discard;
    lib_keep(&logged);
    lib_keep(io);
    pthread_create(&t, NULL, worker, io);
    pthread_join(t, NULL);
    free(io);
    return 0;
}
