/* time.c — <time.h> and <sys/time.h>.
 *
 * Clocks and sleeps only write the caller's out-parameters (time(t) writes *t when t is not null,
 * clock_gettime writes *ts, nanosleep reads *req and writes *rem).
 *
 * Static storage: localtime and gmtime return one static struct tm that both overwrite (glibc
 * shares a single buffer between them), and asctime/ctime one static string: concurrent callers
 * really race on them, which is why the _r variants exist; those write the caller's buffer and
 * return it. tm_zone is set to point at a constant zone name (glibc points it at static storage
 * that is only read). */

static const char tm_zone_name[] = "UTC";

time_t time(time_t *t)
{
    if (t != NULL)
        *t = __locksmith_nondet();
    return __locksmith_nondet();
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
    __locksmith_write(ts);
    return __locksmith_nondet();
}

int clock_getres(clockid_t clock, struct timespec *res)
{
    if (res != NULL)
        __locksmith_write(res);
    return __locksmith_nondet();
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    __locksmith_write(tv);
    if (tz != NULL)
        __locksmith_write(tz);
    return __locksmith_nondet();
}

int timespec_get(struct timespec *ts, int base)
{
    __locksmith_write(ts);
    return __locksmith_nondet();
}

clock_t clock(void)
{
    return __locksmith_nondet();
}

double difftime(time_t end, time_t start)
{
    return __locksmith_nondet();
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    __locksmith_read(req);
    if (rem != NULL)
        __locksmith_write(rem);
    return __locksmith_nondet();
}

/* C11's sleep (<threads.h>, which the stub unit does not include). */
int thrd_sleep(const struct timespec *duration, struct timespec *remaining)
{
    __locksmith_read(duration);
    if (remaining != NULL)
        __locksmith_write(remaining);
    return __locksmith_nondet();
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
    __locksmith_read(req);
    if (rem != NULL)
        __locksmith_write(rem);
    return __locksmith_nondet();
}

/* mktime and timegm normalise the fields of *tm in place. */
time_t mktime(struct tm *tm)
{
    __locksmith_read(tm);
    __locksmith_write(tm);
    return __locksmith_nondet();
}

time_t timegm(struct tm *tm)
{
    __locksmith_read(tm);
    __locksmith_write(tm);
    return __locksmith_nondet();
}

void tzset(void)
{
}

/* ---- broken-down time ---- */

static struct tm tm_result;
static char asctime_result[26];

struct tm *localtime_r(const time_t *restrict t, struct tm *restrict tm)
{
    __locksmith_read(t);
    __locksmith_write(tm);
    tm->tm_zone = tm_zone_name;
    return tm;
}

struct tm *gmtime_r(const time_t *restrict t, struct tm *restrict tm)
{
    __locksmith_read(t);
    __locksmith_write(tm);
    tm->tm_zone = tm_zone_name;
    return tm;
}

struct tm *localtime(const time_t *t)
{
    return localtime_r(t, &tm_result);
}

struct tm *gmtime(const time_t *t)
{
    return gmtime_r(t, &tm_result);
}

char *asctime_r(const struct tm *restrict tm, char *restrict buf)
{
    __locksmith_read(tm);
    __locksmith_write(buf);
    return buf;
}

char *asctime(const struct tm *tm)
{
    return asctime_r(tm, asctime_result);
}

char *ctime_r(const time_t *restrict t, char *restrict buf)
{
    struct tm tm;
    return asctime_r(localtime_r(t, &tm), buf);
}

/* POSIX: ctime(t) is asctime(localtime(t)). */
char *ctime(const time_t *t)
{
    return asctime(localtime(t));
}

size_t strftime(char *restrict buf, size_t max, const char *restrict fmt,
                const struct tm *restrict tm)
{
    __locksmith_read(fmt);
    __locksmith_read(tm);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* XSI (declared only under _XOPEN_SOURCE): parses s into *tm, returns a pointer into s. */
char *strptime(const char *restrict s, const char *restrict fmt, struct tm *tm)
{
    __locksmith_read(s);
    __locksmith_read(fmt);
    __locksmith_write(tm);
    return (char *)s;
}
