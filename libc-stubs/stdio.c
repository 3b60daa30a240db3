/* stdio.c — <stdio.h>.
 *
 * Streams: a FILE is locked internally by every stdio function (POSIX requires it; glibc takes the
 * stream's recursive lock), so the stream's own state — its buffer, position, error flags — is
 * never the subject of a data race, and the stubs do not read or write *stream at all. Modelling
 * it as plain shared memory would make every program that logs from two threads report a race on
 * stdout or stderr. What IS modelled is the caller's memory: fgets/fread/scanf write the caller's
 * buffers, fputs/fwrite/printf read them, sprintf/snprintf write the destination buffer.
 *
 * Variadic functions read (printf) or write (scanf) through their variadic pointer arguments with
 * __locksmith_read_varargs / __locksmith_write_varargs. The v* variants receive those arguments as
 * a va_list, and take one pointer out of it with va_arg (as the real implementation does for %s
 * or %d), so that the accesses follow wherever the analysis lets the va_list lead.
 *
 * fopen and friends return a fresh object (one per calling context); stdin/stdout/stderr are
 * global pointers to three static FILE objects, which are only ever read.
 *
 * flockfile/funlockfile are not modelled as locks (they do not protect user data in practice). */

static FILE stdin_file;
static FILE stdout_file;
static FILE stderr_file;
FILE *stdin = &stdin_file;
FILE *stdout = &stdout_file;
FILE *stderr = &stderr_file;

/* ---- opening and closing ---- */

FILE *fopen(const char *restrict path, const char *restrict mode)
{
    __locksmith_read(path);
    __locksmith_read(mode);
    return __locksmith_alloc();
}

FILE *fdopen(int fd, const char *mode)
{
    __locksmith_read(mode);
    return __locksmith_alloc();
}

FILE *freopen(const char *restrict path, const char *restrict mode, FILE *restrict stream)
{
    if (path != NULL)
        __locksmith_read(path);
    __locksmith_read(mode);
    return stream;
}

/* The stream reads and writes buf later; stream state is not modelled, so neither is that. */
FILE *fmemopen(void *buf, size_t size, const char *mode)
{
    __locksmith_read(mode);
    return __locksmith_alloc();
}

/* The stream's growing buffer is stored into *bufp (and its length into *sizep). */
FILE *open_memstream(char **bufp, size_t *sizep)
{
    *bufp = __locksmith_alloc();
    *sizep = __locksmith_nondet();
    return __locksmith_alloc();
}

FILE *tmpfile(void)
{
    return __locksmith_alloc();
}

FILE *popen(const char *command, const char *mode)
{
    __locksmith_read(command);
    __locksmith_read(mode);
    return __locksmith_alloc();
}

int pclose(FILE *stream)
{
    return __locksmith_nondet();
}

int fclose(FILE *stream)
{
    return __locksmith_nondet();
}

int fflush(FILE *stream)
{
    return __locksmith_nondet();
}

int fileno(FILE *stream)
{
    return __locksmith_nondet();
}

int feof(FILE *stream)
{
    return __locksmith_nondet();
}

int ferror(FILE *stream)
{
    return __locksmith_nondet();
}

void clearerr(FILE *stream)
{
}

/* The stream keeps buf as its buffer and writes it later (not modelled, like all stream state). */
int setvbuf(FILE *restrict stream, char *restrict buf, int mode, size_t size)
{
    return __locksmith_nondet();
}

void setbuf(FILE *restrict stream, char *restrict buf)
{
}

void setlinebuf(FILE *stream)
{
}

void flockfile(FILE *stream)
{
}

void funlockfile(FILE *stream)
{
}

int ftrylockfile(FILE *stream)
{
    return __locksmith_nondet();
}

/* ---- positioning ---- */

int fseek(FILE *stream, long offset, int whence)
{
    return __locksmith_nondet();
}

int fseeko(FILE *stream, off_t offset, int whence)
{
    return __locksmith_nondet();
}

long ftell(FILE *stream)
{
    return __locksmith_nondet();
}

off_t ftello(FILE *stream)
{
    return __locksmith_nondet();
}

void rewind(FILE *stream)
{
}

int fgetpos(FILE *restrict stream, fpos_t *restrict pos)
{
    __locksmith_write(pos);
    return __locksmith_nondet();
}

int fsetpos(FILE *stream, const fpos_t *pos)
{
    __locksmith_read(pos);
    return __locksmith_nondet();
}

/* ---- character and line input ---- */

int fgetc(FILE *stream)
{
    return __locksmith_nondet();
}

int getc(FILE *stream)
{
    return __locksmith_nondet();
}

/* glibc's own names: _IO_getc and _IO_putc are getc and putc in code preprocessed with glibc
 * before 2.28; __uflow and __overflow are the slow paths of its inline getc and putc. Each
 * locks its stream. */
int _IO_getc(FILE *stream)
{
    return __locksmith_nondet();
}

int __uflow(FILE *stream)
{
    return __locksmith_nondet();
}

int _IO_putc(int c, FILE *stream)
{
    return __locksmith_nondet();
}

int __overflow(FILE *stream, int c)
{
    return __locksmith_nondet();
}

int getchar(void)
{
    return __locksmith_nondet();
}

int getc_unlocked(FILE *stream)
{
    return __locksmith_nondet();
}

int getchar_unlocked(void)
{
    return __locksmith_nondet();
}

int ungetc(int c, FILE *stream)
{
    return __locksmith_nondet();
}

char *fgets(char *restrict buf, int n, FILE *restrict stream)
{
    __locksmith_write(buf);
    if (__locksmith_nondet())
        return NULL;
    return buf;
}

size_t fread(void *restrict buf, size_t size, size_t n, FILE *restrict stream)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* getdelim/getline may (re)allocate the caller's buffer, then fill it. */
ssize_t getdelim(char **restrict lineptr, size_t *restrict n, int delim, FILE *restrict stream)
{
    if (*lineptr == NULL || __locksmith_nondet()) {
        *lineptr = realloc(*lineptr, *n + 120);
        *n = *n + 120;
    }
    __locksmith_write(*lineptr);
    return __locksmith_nondet();
}

/* glibc's own name of getdelim, which its inline getline calls when optimising. */
ssize_t __getdelim(char **restrict lineptr, size_t *restrict n, int delim, FILE *restrict stream)
{
    return getdelim(lineptr, n, delim, stream);
}

ssize_t getline(char **restrict lineptr, size_t *restrict n, FILE *restrict stream)
{
    if (*lineptr == NULL || __locksmith_nondet()) {
        *lineptr = realloc(*lineptr, *n + 120);
        *n = *n + 120;
    }
    __locksmith_write(*lineptr);
    return __locksmith_nondet();
}

/* ---- character and line output ---- */

int fputc(int c, FILE *stream)
{
    return __locksmith_nondet();
}

int putc(int c, FILE *stream)
{
    return __locksmith_nondet();
}

int putchar(int c)
{
    return __locksmith_nondet();
}

int putc_unlocked(int c, FILE *stream)
{
    return __locksmith_nondet();
}

int putchar_unlocked(int c)
{
    return __locksmith_nondet();
}

int fputs(const char *restrict s, FILE *restrict stream)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

int puts(const char *s)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

size_t fwrite(const void *restrict buf, size_t size, size_t n, FILE *restrict stream)
{
    __locksmith_read(buf);
    return __locksmith_nondet();
}

void perror(const char *s)
{
    if (s != NULL)
        __locksmith_read(s);
}

/* ---- formatted output ---- */

int printf(const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_read_varargs();
    return __locksmith_nondet();
}

int fprintf(FILE *restrict stream, const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_read_varargs();
    return __locksmith_nondet();
}

int dprintf(int fd, const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_read_varargs();
    return __locksmith_nondet();
}

int sprintf(char *restrict buf, const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_read_varargs();
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_read_varargs();
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* GNU: the result is allocated and stored into *strp. */
int asprintf(char **restrict strp, const char *restrict fmt, ...)
{
    char *s = __locksmith_alloc();
    __locksmith_read(fmt);
    __locksmith_read_varargs();
    __locksmith_write(s);
    *strp = s;
    return __locksmith_nondet();
}

int vprintf(const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    return __locksmith_nondet();
}

int vfprintf(FILE *restrict stream, const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    return __locksmith_nondet();
}

int vdprintf(int fd, const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    return __locksmith_nondet();
}

int vsprintf(char *restrict buf, const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* GNU */
int vasprintf(char **restrict strp, const char *restrict fmt, va_list ap)
{
    char *s = __locksmith_alloc();
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    __locksmith_write(s);
    *strp = s;
    return __locksmith_nondet();
}

/* ---- formatted input ---- */

int scanf(const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_write_varargs();
    return __locksmith_nondet();
}

int fscanf(FILE *restrict stream, const char *restrict fmt, ...)
{
    __locksmith_read(fmt);
    __locksmith_write_varargs();
    return __locksmith_nondet();
}

int sscanf(const char *restrict s, const char *restrict fmt, ...)
{
    __locksmith_read(s);
    __locksmith_read(fmt);
    __locksmith_write_varargs();
    return __locksmith_nondet();
}

int vscanf(const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_write(va_arg(ap, void *));
    return __locksmith_nondet();
}

int vfscanf(FILE *restrict stream, const char *restrict fmt, va_list ap)
{
    __locksmith_read(fmt);
    __locksmith_write(va_arg(ap, void *));
    return __locksmith_nondet();
}

int vsscanf(const char *restrict s, const char *restrict fmt, va_list ap)
{
    __locksmith_read(s);
    __locksmith_read(fmt);
    __locksmith_write(va_arg(ap, void *));
    return __locksmith_nondet();
}

/* ---- files by name ---- */

int remove(const char *path)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int rename(const char *from, const char *to)
{
    __locksmith_read(from);
    __locksmith_read(to);
    return __locksmith_nondet();
}
