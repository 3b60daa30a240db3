/* A buffer a worker allocates is its own until it publishes it. Before that, the
 * helpers it hands the buffer to write it while no other thread can reach it:
 * every call of `fill` (through `read_into`) passes a fresh, unpublished buffer,
 * so its writes are NORACE needs=uniqueness, although the buffers are later
 * published through `last`. The helpers called on the way keep no copy of the
 * buffer: `has_space` holds `strchr`'s result in a local it only tests, and the
 * variadic `note` reads its arguments through a `va_list`. After publishing,
 * `stamp` writes the buffer while another worker may read it through `last`:
 * RACE. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char *last;

static void fill(char *dest, int id)
{
    snprintf(dest, 32, "worker %d", id); // NORACE needs=uniqueness
    dest[31] = 0; // NORACE needs=uniqueness
}

static void read_into(char *dest, int id) { fill(dest, id); }

static int has_space(const char *s)
{
    const char *p = strchr(s, ' ');
    return p != NULL;
}

static void note(const char *fmt, ...)
{
    char line[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
}

static void stamp(char *dest) { dest[0] = 'W'; } // RACE: the buffer is published

/* Worker 0 publishes its buffer, then stamps it; worker 1 reads it meanwhile. */
static void *worker(void *arg)
{
    int id = (int)(long)arg;
    char *buf = calloc(1, 32);
    if (!buf)
        return NULL;
    note("buffer %p", (void *)buf);
    if (!has_space(buf))
        read_into(buf, id);
    if (id == 0) {
        pthread_mutex_lock(&m);
        last = buf;
        pthread_mutex_unlock(&m);
        usleep(20000);
        stamp(buf);
        return NULL;
    }
    usleep(10000);
    pthread_mutex_lock(&m);
    char c = last ? last[0] : 0; // RACE: worker 0 stamps the buffer it published
    pthread_mutex_unlock(&m);
    free(buf);
    return (void *)(long)c;
}

int main(void)
{
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
