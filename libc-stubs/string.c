/* string.c — <string.h> and <strings.h>.
 *
 * String and memory functions only move bytes between the objects their arguments point to, so each
 * stub is one or two intrinsic calls: __locksmith_read for what is scanned, __locksmith_write for what
 * is overwritten, __locksmith_copy where bytes (and so possibly pointers, for memcpy of a struct)
 * flow from one object to another. Functions that return a pointer into an argument (strchr,
 * strstr, strtok_r, ...) return that argument, which keeps the data flow.
 *
 * Static storage: strtok keeps its position in a static pointer shared by all threads (a real race
 * when two threads tokenise at once, and glibc's is exactly that). strerror and strsignal return
 * messages from a constant table in glibc (unknown numbers are formatted in a thread-local buffer
 * since glibc 2.32), so callers only ever read the static message: no write is modelled. */

/* ---- memory blocks ---- */

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    __locksmith_copy(dst, src);
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    __locksmith_copy(dst, src);
    return dst;
}

void *memccpy(void *restrict dst, const void *restrict src, int c, size_t n)
{
    __locksmith_copy(dst, src);
    return dst;
}

/* GNU: returns the end of the copy. */
void *mempcpy(void *restrict dst, const void *restrict src, size_t n)
{
    __locksmith_copy(dst, src);
    return (char *)dst + n;
}

void *memset(void *s, int c, size_t n)
{
    __locksmith_write(s);
    return s;
}

int memcmp(const void *a, const void *b, size_t n)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

void *memchr(const void *s, int c, size_t n)
{
    __locksmith_read(s);
    return (void *)s;
}

/* GNU */
void *memrchr(const void *s, int c, size_t n)
{
    __locksmith_read(s);
    return (void *)s;
}

/* GNU */
void *memmem(const void *hay, size_t haylen, const void *needle, size_t needlelen)
{
    __locksmith_read(hay);
    __locksmith_read(needle);
    return (void *)hay;
}

void bzero(void *s, size_t n)
{
    __locksmith_write(s);
}

void explicit_bzero(void *s, size_t n)
{
    __locksmith_write(s);
}

void bcopy(const void *src, void *dst, size_t n)
{
    __locksmith_copy(dst, src);
}

int bcmp(const void *a, const void *b, size_t n)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

/* ---- copying and concatenating strings ---- */

char *strcpy(char *restrict dst, const char *restrict src)
{
    __locksmith_copy(dst, src);
    return dst;
}

char *strncpy(char *restrict dst, const char *restrict src, size_t n)
{
    __locksmith_copy(dst, src);
    return dst;
}

char *stpcpy(char *restrict dst, const char *restrict src)
{
    __locksmith_copy(dst, src);
    return dst;
}

char *stpncpy(char *restrict dst, const char *restrict src, size_t n)
{
    __locksmith_copy(dst, src);
    return dst;
}

/* strcat scans dst for its end before appending. */
char *strcat(char *restrict dst, const char *restrict src)
{
    __locksmith_read(dst);
    __locksmith_copy(dst, src);
    return dst;
}

char *strncat(char *restrict dst, const char *restrict src, size_t n)
{
    __locksmith_read(dst);
    __locksmith_copy(dst, src);
    return dst;
}

/* BSD, in glibc since 2.38. */
size_t strlcpy(char *restrict dst, const char *restrict src, size_t n)
{
    __locksmith_copy(dst, src);
    return __locksmith_nondet();
}

size_t strlcat(char *restrict dst, const char *restrict src, size_t n)
{
    __locksmith_read(dst);
    __locksmith_copy(dst, src);
    return __locksmith_nondet();
}

size_t strxfrm(char *restrict dst, const char *restrict src, size_t n)
{
    __locksmith_read(src);
    __locksmith_write(dst);
    return __locksmith_nondet();
}

/* ---- comparing and measuring ---- */

int strcmp(const char *a, const char *b)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

int strncmp(const char *a, const char *b, size_t n)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

int strcoll(const char *a, const char *b)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

int strcasecmp(const char *a, const char *b)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

size_t strlen(const char *s)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

size_t strnlen(const char *s, size_t max)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

size_t strspn(const char *s, const char *accept)
{
    __locksmith_read(s);
    __locksmith_read(accept);
    return __locksmith_nondet();
}

size_t strcspn(const char *s, const char *reject)
{
    __locksmith_read(s);
    __locksmith_read(reject);
    return __locksmith_nondet();
}

/* ---- searching: the result points into the searched string ---- */

char *strchr(const char *s, int c)
{
    __locksmith_read(s);
    return (char *)s;
}

char *strrchr(const char *s, int c)
{
    __locksmith_read(s);
    return (char *)s;
}

/* GNU */
char *strchrnul(const char *s, int c)
{
    __locksmith_read(s);
    return (char *)s;
}

char *index(const char *s, int c)
{
    __locksmith_read(s);
    return (char *)s;
}

char *rindex(const char *s, int c)
{
    __locksmith_read(s);
    return (char *)s;
}

char *strstr(const char *hay, const char *needle)
{
    __locksmith_read(hay);
    __locksmith_read(needle);
    return (char *)hay;
}

/* GNU */
char *strcasestr(const char *hay, const char *needle)
{
    __locksmith_read(hay);
    __locksmith_read(needle);
    return (char *)hay;
}

char *strpbrk(const char *s, const char *accept)
{
    __locksmith_read(s);
    __locksmith_read(accept);
    return (char *)s;
}

int ffs(int i)
{
    return __locksmith_nondet();
}

/* ---- duplicating: a fresh heap copy ---- */

char *strdup(const char *s)
{
    char *d = __locksmith_alloc();
    __locksmith_copy(d, s);
    return d;
}

char *strndup(const char *s, size_t n)
{
    char *d = __locksmith_alloc();
    __locksmith_copy(d, s);
    return d;
}

/* glibc's own names of strdup and strndup, which its headers (and code preprocessed with them)
 * call when optimising. */
char *__strdup(const char *s)
{
    char *d = __locksmith_alloc();
    __locksmith_copy(d, s);
    return d;
}

char *__strndup(const char *s, size_t n)
{
    char *d = __locksmith_alloc();
    __locksmith_copy(d, s);
    return d;
}

/* ---- tokenising: the string is modified in place (separators become NULs) ---- */

static char *strtok_position;

char *strtok(char *restrict s, const char *restrict delim)
{
    __locksmith_read(delim);
    if (s == NULL)
        s = strtok_position;
    __locksmith_write(s);
    strtok_position = s;
    return s;
}

char *strtok_r(char *restrict s, const char *restrict delim, char **restrict save)
{
    __locksmith_read(delim);
    if (s == NULL)
        s = *save;
    __locksmith_write(s);
    *save = s;
    return s;
}

char *strsep(char **restrict sp, const char *restrict delim)
{
    char *s = *sp;
    __locksmith_read(delim);
    __locksmith_write(s);
    *sp = s;
    return s;
}

/* glibc's own names of strtok_r and strsep, which its headers call when optimising (the
 * latter before 2.26). */
char *__strtok_r(char *restrict s, const char *restrict delim, char **restrict save)
{
    return strtok_r(s, delim, save);
}

char *__strsep_g(char **sp, const char *delim)
{
    return strsep(sp, delim);
}

/* ---- messages ---- */

static const char strerror_message[] = "Unknown error";
static const char strsignal_message[] = "Unknown signal";

char *strerror(int errnum)
{
    return (char *)strerror_message;
}

/* The POSIX version (what a program that does not define _GNU_SOURCE gets): fills buf. The GNU
 * version (if the unit is ever preprocessed with _GNU_SOURCE) returns buf or a constant message. */
#ifndef __USE_GNU
int strerror_r(int errnum, char *buf, size_t len)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}
#else
char *strerror_r(int errnum, char *buf, size_t len)
{
    __locksmith_write(buf);
    return buf;
}
#endif

char *strsignal(int sig)
{
    return (char *)strsignal_message;
}
