/* Two workers compress with zlib, each on a stream of its own, into one output buffer. zlib
 * keeps a stream's state in the stream, so the streams do not race (NORACE), but `deflate`
 * writes the output buffer both give it (RACE on both calls), and zlib calls the program's
 * allocator when a stream is set up, in the calling thread (`allocs`, RACE). The library is
 * compiled by gcc only (a stand-in for zlib); locksmith uses its zlib model. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct z_stream_s {
    unsigned char *next_in;
    unsigned avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned avail_out;
    unsigned long total_out;
    char *msg;
    struct internal_state *state;
    void *(*zalloc)(void *opaque, unsigned items, unsigned size);
    void (*zfree)(void *opaque, void *address);
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} z_stream;

int deflateInit_(z_stream *strm, int level, const char *version, int size);
int deflate(z_stream *strm, int flush);
int deflateEnd(z_stream *strm);

#ifndef __LOCKSMITH__
int deflateInit_(z_stream *strm, int level, const char *version, int size)
{
    (void)level, (void)version, (void)size;
    strm->state = strm->zalloc(strm->opaque, 1, 64);
    strm->total_in = strm->total_out = 0;
    return 0;
}
int deflate(z_stream *strm, int flush)
{
    (void)flush;
    unsigned n = strm->avail_in < strm->avail_out ? strm->avail_in : strm->avail_out;
    memcpy(strm->next_out, strm->next_in, n);
    strm->next_in += n, strm->avail_in -= n, strm->total_in += n;
    strm->next_out += n, strm->avail_out -= n, strm->total_out += n;
    return 1;
}
int deflateEnd(z_stream *strm)
{
    strm->zfree(strm->opaque, strm->state);
    return 0;
}
#endif

#define ITER 200

static unsigned char input[256];
static unsigned char output[256];
static unsigned long allocs;

static void *counted_alloc(void *opaque, unsigned items, unsigned size)
{
    (void)opaque;
    allocs++; // RACE: both workers set a stream up
    return calloc(items, size);
}

static void counted_free(void *opaque, void *address)
{
    (void)opaque;
    free(address);
}

static void *worker(void *arg)
{
    for (int i = 0; i < ITER; i++) {
        z_stream strm;
        memset(&strm, 0, sizeof strm);
        strm.zalloc = counted_alloc;
        strm.zfree = counted_free;
        deflateInit_(&strm, 6, "1.2.11", (int)sizeof strm);
        strm.next_in = input;
        strm.avail_in = sizeof input;
        strm.next_out = output;
        strm.avail_out = sizeof output;
        deflate(&strm, 4); // RACE: both workers write output
        printf("%lu\n", strm.total_out); // NORACE: each worker's own stream
        deflateEnd(&strm);
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
