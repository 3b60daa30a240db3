/* A struct of numbers copied byte for byte (`memcpy`, `memmove`) into a buffer of another
 * type: no copied value is a pointer, so the two objects stay two. Each worker fills its own
 * heap `struct stamp` and copies it into its own stack byte buffer: NORACE (both were one
 * conflated object whose memory was the whole program's, shared by every thread). Both write
 * the shared `current` and copy it into their buffers: RACE; and both copy into the one
 * global byte buffer `wire`: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stamp {
    unsigned seconds;
    unsigned short port;
    unsigned char flags[4];
};

static struct stamp current;
static unsigned char wire[sizeof(struct stamp)];

static unsigned checksum(const unsigned char *bytes, size_t n)
{
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += bytes[i];
    return sum;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    struct stamp *mine = malloc(sizeof *mine);
    unsigned char local[sizeof(struct stamp)];
    if (mine == NULL)
        return NULL;
    mine->seconds = (unsigned)id; // NORACE
    mine->port = 80; // NORACE
    memcpy(local, mine, sizeof *mine); // NORACE
    memmove(local, mine, sizeof *mine); // NORACE
    unsigned sum = checksum(local, sizeof local); // NORACE
    current.seconds = sum; // RACE
    memcpy(local, &current, sizeof current); // RACE
    memcpy(wire, mine, sizeof *mine); // RACE
    free(mine); // NORACE
    return (void *)(long)local[0];
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%u %u\n", current.seconds, checksum(wire, sizeof wire));
    return 0;
}
