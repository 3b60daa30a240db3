/* zlib.c — zlib's streams, checksums and one-call functions (<zlib.h>). A stream's state is its
 * own (zlib allocates it at init and reaches it only through the stream), so a call on a
 * stream reads and writes the `z_stream` and nothing shared: two threads race only on a stream
 * or a buffer they share. `deflate` and `inflate` read the input (`next_in`) and write the
 * output (`next_out`); `inflateBack` calls the program's `in` and `out` functions before it
 * returns, in the calling thread, with the descriptors it is given, and hands `out` the window
 * `inflateBackInit_` was given (one window stands for every stream's). Setting a stream up and
 * ending it call the program's `zalloc` and `zfree`, if it set them. The checksums read
 * their buffer; `get_crc_table` and `zlibVersion` hand out constant data. gzip files
 * (`gzopen`, `gzread`, …) stay code locksmith cannot see.
 *
 * The stream struct is zlib's public one, so that the program's `struct z_stream_s` is this
 * struct (same tag, same members); the stub unit has no zlib header. */

typedef void *(*zlib_alloc_func)(void *opaque, unsigned items, unsigned size);
typedef void (*zlib_free_func)(void *opaque, void *address);

struct z_stream_s {
    unsigned char *next_in;
    unsigned avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned avail_out;
    unsigned long total_out;
    char *msg;
    struct internal_state *state;
    zlib_alloc_func zalloc;
    zlib_free_func zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
};

static unsigned char *zlib_window;
static const unsigned zlib_crc_table[256];
static const char zlib_version[] = "1.2.11";

static int zlib_stream(struct z_stream_s *strm)
{
    __locksmith_read(strm);
    __locksmith_write(strm);
    return __locksmith_nondet();
}

/* Setting a stream up allocates its state with the program's allocator, if it gave one. */
static int zlib_init(struct z_stream_s *strm)
{
    if (strm->zalloc != NULL)
        strm->zalloc(strm->opaque, 1, 1);
    return zlib_stream(strm);
}

/* Ending a stream frees its state with the program's allocator, if it gave one. */
static int zlib_end(struct z_stream_s *strm)
{
    if (strm->zfree != NULL)
        strm->zfree(strm->opaque, strm->state);
    return zlib_stream(strm);
}

static int zlib_code(struct z_stream_s *strm)
{
    __locksmith_read(strm->next_in);
    __locksmith_write(strm->next_out);
    return zlib_stream(strm);
}

int deflateInit_(struct z_stream_s *strm, int level, const char *version, int size)
{
    return zlib_init(strm);
}

int deflateInit2_(struct z_stream_s *strm, int level, int method, int bits, int mem, int strategy,
                  const char *version, int size)
{
    return zlib_init(strm);
}

int inflateInit_(struct z_stream_s *strm, const char *version, int size)
{
    return zlib_init(strm);
}

int inflateInit2_(struct z_stream_s *strm, int bits, const char *version, int size)
{
    return zlib_init(strm);
}

int inflateBackInit_(struct z_stream_s *strm, int bits, unsigned char *window,
                     const char *version, int size)
{
    zlib_window = window;
    return zlib_init(strm);
}

int deflate(struct z_stream_s *strm, int flush)
{
    return zlib_code(strm);
}

int inflate(struct z_stream_s *strm, int flush)
{
    return zlib_code(strm);
}

int inflateBack(struct z_stream_s *strm, unsigned (*in)(void *, unsigned char **), void *in_desc,
                int (*out)(void *, unsigned char *, unsigned), void *out_desc)
{
    unsigned char *next = NULL;
    if (in(in_desc, &next) != 0)
        __locksmith_read(next);
    __locksmith_write(zlib_window);
    out(out_desc, zlib_window, 1);
    return zlib_stream(strm);
}

int deflateEnd(struct z_stream_s *strm)
{
    return zlib_end(strm);
}

int inflateEnd(struct z_stream_s *strm)
{
    return zlib_end(strm);
}

int inflateBackEnd(struct z_stream_s *strm)
{
    return zlib_end(strm);
}

int deflateReset(struct z_stream_s *strm)
{
    return zlib_stream(strm);
}

int inflateReset(struct z_stream_s *strm)
{
    return zlib_stream(strm);
}

int deflateParams(struct z_stream_s *strm, int level, int strategy)
{
    return zlib_stream(strm);
}

int deflatePrime(struct z_stream_s *strm, int bits, int value)
{
    return zlib_stream(strm);
}

int deflatePending(struct z_stream_s *strm, unsigned *pending, int *bits)
{
    if (pending != NULL)
        __locksmith_write(pending);
    if (bits != NULL)
        __locksmith_write(bits);
    return zlib_stream(strm);
}

int deflateSetDictionary(struct z_stream_s *strm, const unsigned char *dictionary, unsigned length)
{
    __locksmith_read(dictionary);
    return zlib_stream(strm);
}

unsigned long deflateBound(struct z_stream_s *strm, unsigned long length)
{
    __locksmith_read(strm);
    return (unsigned long)__locksmith_nondet();
}

unsigned long crc32(unsigned long crc, const unsigned char *buf, unsigned length)
{
    if (buf != NULL)
        __locksmith_read(buf);
    return (unsigned long)__locksmith_nondet();
}

unsigned long adler32(unsigned long adler, const unsigned char *buf, unsigned length)
{
    if (buf != NULL)
        __locksmith_read(buf);
    return (unsigned long)__locksmith_nondet();
}

const unsigned *get_crc_table(void)
{
    return zlib_crc_table;
}

const char *zlibVersion(void)
{
    return zlib_version;
}

int compress2(unsigned char *dest, unsigned long *dest_length, const unsigned char *source,
              unsigned long source_length, int level)
{
    __locksmith_read(source);
    __locksmith_write(dest);
    __locksmith_write(dest_length);
    return __locksmith_nondet();
}

int compress(unsigned char *dest, unsigned long *dest_length, const unsigned char *source,
             unsigned long source_length)
{
    return compress2(dest, dest_length, source, source_length, 6);
}

int uncompress(unsigned char *dest, unsigned long *dest_length, const unsigned char *source,
               unsigned long source_length)
{
    return compress2(dest, dest_length, source, source_length, 0);
}

unsigned long compressBound(unsigned long source_length)
{
    return source_length + 64;
}
