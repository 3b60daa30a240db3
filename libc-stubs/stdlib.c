/* stdlib.c — <stdlib.h> (and strtoimax/strtoumax from <inttypes.h>), except the allocator and the
 * process-ending functions (malloc, calloc, realloc, free, exit, _exit, abort), which the analysis
 * handles by name; stubs here call them where the real function does.
 *
 * Conversions read their string and store into *endptr a pointer into it. qsort and bsearch call
 * the user's comparator, so that accesses made by the callback are seen (with the locks held
 * around the qsort call); qsort also rewrites the array.
 *
 * Hidden state: rand/srand/random are internally locked in glibc, so they touch no modelled
 * memory. The drand48 family keeps its state in an unlocked static buffer (a real race when
 * several threads use it), and the environment is a static array that getenv reads and
 * setenv/putenv/unsetenv rewrite (getenv concurrent with setenv is a real race; getenv alone is
 * only reads). */

/* ---- numeric conversions ---- */

int atoi(const char *s)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

long atol(const char *s)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

long long atoll(const char *s)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

double atof(const char *s)
{
    __locksmith_read(s);
    return __locksmith_nondet();
}

long strtol(const char *restrict s, char **restrict end, int base)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

/* glibc's internal names of the strto* family, which its headers before 2.x inlined calls to. */
long __strtol_internal(const char *s, char **end, int base, int group)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

unsigned long __strtoul_internal(const char *s, char **end, int base, int group)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

long long __strtoll_internal(const char *s, char **end, int base, int group)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

unsigned long long __strtoull_internal(const char *s, char **end, int base, int group)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

unsigned long strtoul(const char *restrict s, char **restrict end, int base)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

long long strtoll(const char *restrict s, char **restrict end, int base)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

unsigned long long strtoull(const char *restrict s, char **restrict end, int base)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

intmax_t strtoimax(const char *restrict s, char **restrict end, int base)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

uintmax_t strtoumax(const char *restrict s, char **restrict end, int base)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

double strtod(const char *restrict s, char **restrict end)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

float strtof(const char *restrict s, char **restrict end)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

long double strtold(const char *restrict s, char **restrict end)
{
    __locksmith_read(s);
    if (end != NULL)
        *end = (char *)s;
    return __locksmith_nondet();
}

/* ---- integer arithmetic ---- */

int abs(int x)
{
    return __locksmith_nondet();
}

long labs(long x)
{
    return __locksmith_nondet();
}

long long llabs(long long x)
{
    return __locksmith_nondet();
}

div_t div(int num, int den)
{
    div_t r;
    r.quot = __locksmith_nondet();
    r.rem = __locksmith_nondet();
    return r;
}

ldiv_t ldiv(long num, long den)
{
    ldiv_t r;
    r.quot = __locksmith_nondet();
    r.rem = __locksmith_nondet();
    return r;
}

lldiv_t lldiv(long long num, long long den)
{
    lldiv_t r;
    r.quot = __locksmith_nondet();
    r.rem = __locksmith_nondet();
    return r;
}

/* ---- random numbers ---- */

/* The seed rand and srand share (POSIX: rand need not be thread-safe, XSH 2.9.1). */
static unsigned int rand_state;

int rand(void)
{
    __locksmith_read(&rand_state);
    __locksmith_write(&rand_state);
    return __locksmith_nondet();
}

void srand(unsigned int seed)
{
    rand_state = seed;
}

int rand_r(unsigned int *seed)
{
    __locksmith_read(seed);
    __locksmith_write(seed);
    return __locksmith_nondet();
}

/* The state random and srandom share. */
static long random_state[32];

long random(void)
{
    __locksmith_read(random_state);
    __locksmith_write(random_state);
    return __locksmith_nondet();
}

void srandom(unsigned int seed)
{
    __locksmith_write(random_state);
}

/* BSD, in glibc since 2.36. */
uint32_t arc4random(void)
{
    return __locksmith_nondet();
}

uint32_t arc4random_uniform(uint32_t bound)
{
    return __locksmith_nondet();
}

void arc4random_buf(void *buf, size_t n)
{
    __locksmith_write(buf);
}

/* The unlocked state shared by drand48, lrand48, mrand48 and srand48. */
static unsigned short drand48_state[7];

double drand48(void)
{
    __locksmith_read(drand48_state);
    __locksmith_write(drand48_state);
    return __locksmith_nondet();
}

long lrand48(void)
{
    __locksmith_read(drand48_state);
    __locksmith_write(drand48_state);
    return __locksmith_nondet();
}

long mrand48(void)
{
    __locksmith_read(drand48_state);
    __locksmith_write(drand48_state);
    return __locksmith_nondet();
}

void srand48(long seed)
{
    __locksmith_write(drand48_state);
}

/* The caller supplies the state. */
double erand48(unsigned short xsubi[3])
{
    __locksmith_read(xsubi);
    __locksmith_write(xsubi);
    return __locksmith_nondet();
}

long nrand48(unsigned short xsubi[3])
{
    __locksmith_read(xsubi);
    __locksmith_write(xsubi);
    return __locksmith_nondet();
}

long jrand48(unsigned short xsubi[3])
{
    __locksmith_read(xsubi);
    __locksmith_write(xsubi);
    return __locksmith_nondet();
}

/* ---- sorting and searching: the comparator is called on the array's elements ---- */

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    cmp(base, base);
    __locksmith_write(base);
}

/* glibc's qsort_r: the comparator is also handed the caller's argument. */
void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
             void *arg)
{
    cmp(base, base, arg);
    __locksmith_write(base);
}

void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    cmp(key, base);
    return (void *)base;
}

/* ---- the environment ---- */

/* The "NAME=value" strings; environment[0] stands for every entry. */
static char environment_text[64];
static char *environment[2] = { environment_text, NULL };

char *getenv(const char *name)
{
    char *entry = environment[0];
    __locksmith_read(name);
    __locksmith_read(entry);
    return entry;
}

/* GNU */
char *secure_getenv(const char *name)
{
    char *entry = environment[0];
    __locksmith_read(name);
    __locksmith_read(entry);
    return entry;
}

/* setenv stores a fresh copy of name=value in the environment array. */
int setenv(const char *name, const char *value, int overwrite)
{
    char *entry = __locksmith_alloc();
    __locksmith_read(name);
    __locksmith_copy(entry, value);
    environment[0] = entry;
    return __locksmith_nondet();
}

int unsetenv(const char *name)
{
    __locksmith_read(name);
    environment[0] = environment[1];
    return __locksmith_nondet();
}

/* putenv stores the caller's own string in the environment array. */
int putenv(char *string)
{
    __locksmith_read(string);
    environment[0] = string;
    return __locksmith_nondet();
}

/* ---- processes, files and memory ---- */

int system(const char *command)
{
    if (command != NULL)
        __locksmith_read(command);
    return __locksmith_nondet();
}

int atexit(void (*fn)(void))
{
    return 0;
}

int at_quick_exit(void (*fn)(void))
{
    return 0;
}

void _Exit(int status)
{
    _exit(status);
}

void quick_exit(int status)
{
    _exit(status);
}

/* The template's trailing XXXXXX is replaced in place. */
int mkstemp(char *tmpl)
{
    __locksmith_read(tmpl);
    __locksmith_write(tmpl);
    return __locksmith_nondet();
}

char *mkdtemp(char *tmpl)
{
    __locksmith_read(tmpl);
    __locksmith_write(tmpl);
    return tmpl;
}

/* With a null buffer, realpath allocates the result. */
char *realpath(const char *restrict path, char *restrict resolved)
{
    __locksmith_read(path);
    if (resolved == NULL)
        resolved = __locksmith_alloc();
    __locksmith_write(resolved);
    return resolved;
}

/* Other allocators are the analysis's malloc and realloc. */
int posix_memalign(void **memptr, size_t alignment, size_t size)
{
    *memptr = malloc(size);
    return __locksmith_nondet();
}

void *aligned_alloc(size_t alignment, size_t size)
{
    return malloc(size);
}

void *reallocarray(void *p, size_t n, size_t size)
{
    return realloc(p, n * size);
}

int getloadavg(double loadavg[], int n)
{
    __locksmith_write(loadavg);
    return __locksmith_nondet();
}
