/* misc.c — everything else: <ctype.h>, <dirent.h>, <sys/stat.h>, <fcntl.h>, <sys/ioctl.h>,
 * <sys/wait.h>, signal sets and signal waiting from <signal.h>, <sched.h>, <semaphore.h>,
 * <sys/resource.h>, <sys/mman.h>, <pwd.h>, <sys/utsname.h>, <syslog.h>, <err.h>, <assert.h>,
 * <libgen.h>, <locale.h>, <sys/random.h>, <sys/eventfd.h>, <nss.h>, <regex.h>, <sys/times.h>,
 * <ftw.h>, <search.h>.
 *
 * ctype: glibc's is* macros index a read-only table through __ctype_b_loc(); the table is never
 * written, so classifying characters in many threads is race-free. The functions themselves are
 * also defined, for calls that bypass the macros (the macros are undefined in this unit first).
 *
 * Directories: a DIR owns the buffer readdir returns (POSIX: it is overwritten by the next readdir
 * on the same stream, not by calls on other streams), so the stub unit completes the opaque DIR
 * type with that buffer; readdir writes it and returns its address. scandir allocates the array
 * and the entries, calls the filter and the comparator, and stores the array into *namelist.
 *
 * Signals: signal and sigaction are handled by the analysis; the set operations here only touch
 * the caller's sigset_t, and sigwait* write the caller's out-parameters. Semaphores are internally
 * synchronised objects, so their operations touch no modelled memory (the analysis does not treat
 * them as locks either). Every pthread_* function is handled by the analysis (pthread_atfork is
 * with fork, in unistd.c), so none is here;
 * glibc's pthread_cleanup_push and pthread_cleanup_pop macros expand to calls of its internal
 * __pthread_register_cancel, __pthread_unregister_cancel and __pthread_unwind_next, which keep
 * the cleanup buffer (a local of the caller) on the calling thread's own list: stubs at the end.
 *
 * getpwnam/getpwuid return static storage overwritten by every call (a real race between
 * threads); the _r variants fill the caller's struct and buffer. err/errx/verr/verrx and
 * __assert_fail do not return: they end in exit or abort, which the analysis handles. */

/* ---- ctype ---- */

static const unsigned short ctype_class_table[384];
static const int32_t ctype_tolower_table[384];
static const int32_t ctype_toupper_table[384];
static const unsigned short *ctype_class_pointer = ctype_class_table + 128;
static const int32_t *ctype_tolower_pointer = ctype_tolower_table + 128;
static const int32_t *ctype_toupper_pointer = ctype_toupper_table + 128;

const unsigned short **__ctype_b_loc(void)
{
    return &ctype_class_pointer;
}

const int32_t **__ctype_tolower_loc(void)
{
    return &ctype_tolower_pointer;
}

const int32_t **__ctype_toupper_loc(void)
{
    return &ctype_toupper_pointer;
}

#undef isalnum
#undef isalpha
#undef isblank
#undef iscntrl
#undef isdigit
#undef isgraph
#undef islower
#undef isprint
#undef ispunct
#undef isspace
#undef isupper
#undef isxdigit
#undef isascii
#undef toascii
#undef tolower
#undef toupper

int isalnum(int c)
{
    return __locksmith_nondet();
}

int isalpha(int c)
{
    return __locksmith_nondet();
}

int isblank(int c)
{
    return __locksmith_nondet();
}

int iscntrl(int c)
{
    return __locksmith_nondet();
}

int isdigit(int c)
{
    return __locksmith_nondet();
}

int isgraph(int c)
{
    return __locksmith_nondet();
}

int islower(int c)
{
    return __locksmith_nondet();
}

int isprint(int c)
{
    return __locksmith_nondet();
}

int ispunct(int c)
{
    return __locksmith_nondet();
}

int isspace(int c)
{
    return __locksmith_nondet();
}

int isupper(int c)
{
    return __locksmith_nondet();
}

int isxdigit(int c)
{
    return __locksmith_nondet();
}

int isascii(int c)
{
    return __locksmith_nondet();
}

int toascii(int c)
{
    return __locksmith_nondet();
}

int tolower(int c)
{
    return __locksmith_nondet();
}

int toupper(int c)
{
    return __locksmith_nondet();
}

/* ---- directories ---- */

/* The opaque DIR of <dirent.h>, completed for the analysis: the entry readdir returns. */
struct __dirstream {
    struct dirent entry;
};

DIR *opendir(const char *path)
{
    __locksmith_read(path);
    return __locksmith_alloc();
}

DIR *fdopendir(int fd)
{
    return __locksmith_alloc();
}

int closedir(DIR *dir)
{
    return __locksmith_nondet();
}

struct dirent *readdir(DIR *dir)
{
    __locksmith_write(&dir->entry);
    return &dir->entry;
}

int readdir_r(DIR *restrict dir, struct dirent *restrict entry, struct dirent **restrict result)
{
    __locksmith_write(entry);
    *result = entry;
    return __locksmith_nondet();
}

void rewinddir(DIR *dir)
{
}

int dirfd(DIR *dir)
{
    return __locksmith_nondet();
}

int scandir(const char *restrict path, struct dirent ***restrict namelist,
            int (*filter)(const struct dirent *),
            int (*compar)(const struct dirent **, const struct dirent **))
{
    struct dirent **list = __locksmith_alloc();
    struct dirent *entry = __locksmith_alloc();
    __locksmith_read(path);
    __locksmith_write(entry);
    if (filter != NULL)
        filter(entry);
    list[0] = entry;
    if (compar != NULL)
        compar((const struct dirent **)list, (const struct dirent **)list);
    *namelist = list;
    return __locksmith_nondet();
}

int alphasort(const struct dirent **a, const struct dirent **b)
{
    __locksmith_read(*a);
    __locksmith_read(*b);
    return __locksmith_nondet();
}

/* ---- file status and creation ---- */

int stat(const char *restrict path, struct stat *restrict buf)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int lstat(const char *restrict path, struct stat *restrict buf)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int fstat(int fd, struct stat *buf)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* The versioned entry points that stat, lstat and fstat were inline wrappers of in glibc before
 * 2.33: code preprocessed with those headers calls them. */
int __xstat(int ver, const char *path, struct stat *buf)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __lxstat(int ver, const char *path, struct stat *buf)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __fxstat(int ver, int fd, struct stat *buf)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* The large-file and `at` forms of glibc's stat wrappers (declared by glibc before 2.33). The
 * buffer is `void *`: the struct stat64 of a program's headers may name its members otherwise
 * than this unit's struct stat, and the `void *` model gives each type its own view. */
int __xstat64(int ver, const char *path, void *buf)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __lxstat64(int ver, const char *path, void *buf)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __fxstat64(int ver, int fd, void *buf)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __fxstatat(int ver, int dirfd, const char *path, void *buf, int flags)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __fxstatat64(int ver, int dirfd, const char *path, void *buf, int flags)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int __xmknod(int ver, const char *path, mode_t mode, dev_t *dev)
{
    __locksmith_read(path);
    __locksmith_read(dev);
    return __locksmith_nondet();
}

int __xmknodat(int ver, int dirfd, const char *path, mode_t mode, dev_t *dev)
{
    __locksmith_read(path);
    __locksmith_read(dev);
    return __locksmith_nondet();
}

int fstatat(int dirfd, const char *restrict path, struct stat *restrict buf, int flags)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int mkdir(const char *path, mode_t mode)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int mkfifo(const char *path, mode_t mode)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int chmod(const char *path, mode_t mode)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int fchmod(int fd, mode_t mode)
{
    return __locksmith_nondet();
}

mode_t umask(mode_t mask)
{
    return __locksmith_nondet();
}

int open(const char *path, int flags, ...)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int openat(int dirfd, const char *path, int flags, ...)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int creat(const char *path, mode_t mode)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

/* The optional argument is an int or a pointer to a struct flock (read by F_SETLK, written by
 * F_GETLK). */
int fcntl(int fd, int cmd, ...)
{
    __locksmith_read_varargs();
    __locksmith_write_varargs();
    return __locksmith_nondet();
}

int ioctl(int fd, unsigned long request, ...)
{
    __locksmith_read_varargs();
    __locksmith_write_varargs();
    return __locksmith_nondet();
}

/* ---- child processes ---- */

pid_t wait(int *status)
{
    if (status != NULL)
        __locksmith_write(status);
    return __locksmith_nondet();
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    if (status != NULL)
        __locksmith_write(status);
    return __locksmith_nondet();
}

/* ---- signal sets and waiting for signals ---- */

int sigemptyset(sigset_t *set)
{
    __locksmith_write(set);
    return 0;
}

int sigfillset(sigset_t *set)
{
    __locksmith_write(set);
    return 0;
}

int sigaddset(sigset_t *set, int sig)
{
    __locksmith_read(set);
    __locksmith_write(set);
    return __locksmith_nondet();
}

int sigdelset(sigset_t *set, int sig)
{
    __locksmith_read(set);
    __locksmith_write(set);
    return __locksmith_nondet();
}

int sigismember(const sigset_t *set, int sig)
{
    __locksmith_read(set);
    return __locksmith_nondet();
}

int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old)
{
    if (set != NULL)
        __locksmith_read(set);
    if (old != NULL)
        __locksmith_write(old);
    return __locksmith_nondet();
}

int sigpending(sigset_t *set)
{
    __locksmith_write(set);
    return __locksmith_nondet();
}

int sigsuspend(const sigset_t *mask)
{
    __locksmith_read(mask);
    return __locksmith_nondet();
}

int sigwait(const sigset_t *restrict set, int *restrict sig)
{
    __locksmith_read(set);
    __locksmith_write(sig);
    return __locksmith_nondet();
}

int sigwaitinfo(const sigset_t *restrict set, siginfo_t *restrict info)
{
    __locksmith_read(set);
    if (info != NULL)
        __locksmith_write(info);
    return __locksmith_nondet();
}

int sigtimedwait(const sigset_t *restrict set, siginfo_t *restrict info,
                 const struct timespec *restrict timeout)
{
    __locksmith_read(set);
    if (info != NULL)
        __locksmith_write(info);
    if (timeout != NULL)
        __locksmith_read(timeout);
    return __locksmith_nondet();
}

int kill(pid_t pid, int sig)
{
    return __locksmith_nondet();
}

int raise(int sig)
{
    return __locksmith_nondet();
}

/* ---- scheduling and semaphores ---- */

int sched_yield(void)
{
    return __locksmith_nondet();
}

int sched_getcpu(void)
{
    return __locksmith_nondet();
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask)
{
    __locksmith_read(mask);
    return __locksmith_nondet();
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask)
{
    __locksmith_write(mask);
    return __locksmith_nondet();
}

/* prctl (<sys/prctl.h>, which the stub unit does not include): the process's or thread's
 * attributes are kernel state; an option may read or write a buffer it is given. */
int prctl(int option, ...)
{
    __locksmith_write_varargs();
    return __locksmith_nondet();
}

int sem_init(sem_t *sem, int pshared, unsigned int value)
{
    return __locksmith_nondet();
}

int sem_destroy(sem_t *sem)
{
    return __locksmith_nondet();
}

int sem_wait(sem_t *sem)
{
    return __locksmith_nondet();
}

int sem_trywait(sem_t *sem)
{
    return __locksmith_nondet();
}

int sem_timedwait(sem_t *restrict sem, const struct timespec *restrict timeout)
{
    __locksmith_read(timeout);
    return __locksmith_nondet();
}

int sem_post(sem_t *sem)
{
    return __locksmith_nondet();
}

int sem_getvalue(sem_t *restrict sem, int *restrict value)
{
    __locksmith_write(value);
    return __locksmith_nondet();
}

/* ---- resources and memory mappings ---- */

int getrlimit(__rlimit_resource_t resource, struct rlimit *limit)
{
    __locksmith_write(limit);
    return __locksmith_nondet();
}

int setrlimit(__rlimit_resource_t resource, const struct rlimit *limit)
{
    __locksmith_read(limit);
    return __locksmith_nondet();
}

int getrusage(__rusage_who_t who, struct rusage *usage)
{
    __locksmith_write(usage);
    return __locksmith_nondet();
}

/* A new mapping is a fresh object. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    return __locksmith_alloc();
}

int munmap(void *addr, size_t len)
{
    return __locksmith_nondet();
}

int mprotect(void *addr, size_t len, int prot)
{
    return __locksmith_nondet();
}

int msync(void *addr, size_t len, int flags)
{
    return __locksmith_nondet();
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int eventfd(unsigned int count, int flags)
{
    return __locksmith_nondet();
}

int eventfd_read(int fd, eventfd_t *value)
{
    __locksmith_write(value);
    return __locksmith_nondet();
}

int eventfd_write(int fd, eventfd_t value)
{
    return __locksmith_nondet();
}

/* ---- users and the system ---- */

static struct passwd passwd_result;
static char passwd_strings[256];

static struct passwd *passwd_fill(struct passwd *pwd, char *buf)
{
    __locksmith_write(buf);
    pwd->pw_name = buf;
    pwd->pw_passwd = buf;
    pwd->pw_uid = __locksmith_nondet();
    pwd->pw_gid = __locksmith_nondet();
    pwd->pw_gecos = buf;
    pwd->pw_dir = buf;
    pwd->pw_shell = buf;
    return pwd;
}

struct passwd *getpwnam(const char *name)
{
    __locksmith_read(name);
    return passwd_fill(&passwd_result, passwd_strings);
}

struct passwd *getpwuid(uid_t uid)
{
    return passwd_fill(&passwd_result, passwd_strings);
}

int getpwnam_r(const char *restrict name, struct passwd *restrict pwd, char *restrict buf,
               size_t len, struct passwd **restrict result)
{
    __locksmith_read(name);
    *result = passwd_fill(pwd, buf);
    return __locksmith_nondet();
}

int getpwuid_r(uid_t uid, struct passwd *restrict pwd, char *restrict buf, size_t len,
               struct passwd **restrict result)
{
    *result = passwd_fill(pwd, buf);
    return __locksmith_nondet();
}

int uname(struct utsname *name)
{
    __locksmith_write(name);
    return __locksmith_nondet();
}

/* setlocale with a locale name changes the process-wide locale and returns its (static) name. */
static char locale_name[64];

char *setlocale(int category, const char *locale)
{
    if (locale != NULL)
        __locksmith_copy(locale_name, locale);
    return locale_name;
}

/* ---- syslog: openlog keeps the ident pointer, every message reads it ---- */

static const char *syslog_ident;

void openlog(const char *ident, int option, int facility)
{
    syslog_ident = ident;
}

void closelog(void)
{
}

int setlogmask(int mask)
{
    return __locksmith_nondet();
}

void syslog(int priority, const char *fmt, ...)
{
    const char *ident = syslog_ident;
    if (ident != NULL)
        __locksmith_read(ident);
    __locksmith_read(fmt);
    __locksmith_read_varargs();
}

void vsyslog(int priority, const char *fmt, va_list ap)
{
    const char *ident = syslog_ident;
    if (ident != NULL)
        __locksmith_read(ident);
    __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
}

/* ---- err.h: messages to stderr; err and errx then exit ---- */

void warn(const char *fmt, ...)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read_varargs();
}

void warnx(const char *fmt, ...)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read_varargs();
}

void vwarn(const char *fmt, va_list ap)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
}

void vwarnx(const char *fmt, va_list ap)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
}

void err(int status, const char *fmt, ...)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read_varargs();
    exit(status);
}

void errx(int status, const char *fmt, ...)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read_varargs();
    exit(status);
}

void verr(int status, const char *fmt, va_list ap)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    exit(status);
}

void verrx(int status, const char *fmt, va_list ap)
{
    if (fmt != NULL)
        __locksmith_read(fmt);
    __locksmith_read(va_arg(ap, const char *));
    exit(status);
}

/* assert() expands to a call of this when the condition is false. */
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function)
{
    __locksmith_read(assertion);
    __locksmith_read(file);
    abort();
}

/* macOS's assertion failure, in code preprocessed with its headers. */
void __assert_rtn(const char *function, const char *file, int line, const char *assertion)
{
    __locksmith_read(assertion);
    __locksmith_read(file);
    abort();
}

/* The BSDs' and macOS's ctype functions behind their macros: a read-only table. */
unsigned long __maskrune(int c, unsigned long mask)
{
    return __locksmith_nondet();
}

int __tolower(int c)
{
    return __locksmith_nondet();
}

int __toupper(int c)
{
    return __locksmith_nondet();
}

/* ---- regular expressions ---- */

/* The stub unit does not include <regex.h> (its types would join the program's), so patterns
 * and matches are `void *` here: the `void *` model gives the program's types their own views.
 * Compiling writes the caller's pattern object (the automaton it owns is the library's, reached
 * only through it); matching reads it, which glibc makes safe for many threads at once by
 * locking the automaton it caches in, and writes the caller's match array. */
int regcomp(void *preg, const char *pattern, int cflags)
{
    __locksmith_read(pattern);
    __locksmith_write(preg);
    return __locksmith_nondet();
}

int regexec(const void *preg, const char *string, size_t nmatch, void *pmatch, int eflags)
{
    __locksmith_read(preg);
    __locksmith_read(string);
    if (pmatch != NULL)
        __locksmith_write(pmatch);
    return __locksmith_nondet();
}

size_t regerror(int code, const void *preg, char *buf, size_t size)
{
    if (buf != NULL)
        __locksmith_write(buf);
    return __locksmith_nondet();
}

void regfree(void *preg)
{
    __locksmith_write(preg);
}

/* ---- process times ---- */

clock_t times(void *buf)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* ---- path names ---- */

/* POSIX dirname and basename may modify the path and return a pointer into it. <libgen.h> renames
 * basename to __xpg_basename, so this first definition defines that name. */
char *dirname(char *path)
{
    if (path != NULL) {
        __locksmith_read(path);
        __locksmith_write(path);
    }
    return path;
}

char *basename(char *path)
{
    if (path != NULL) {
        __locksmith_read(path);
        __locksmith_write(path);
    }
    return path;
}

#undef basename

/* The GNU basename of <string.h> (under _GNU_SOURCE): a pointer into the unmodified argument. */
char *basename(const char *path)
{
    __locksmith_read(path);
    return (char *)path;
}

/* ---- glibc's cleanup handlers (the expansion of pthread_cleanup_push/pop) ---- */

/* The buffer is the caller's local, linked into the calling thread's own list: no shared state.
 * Without these, the buffer (and what the cleanup argument points to) was handed to unknown code,
 * which made it external memory shared by all threads. */
void __pthread_register_cancel(__pthread_unwind_buf_t *buf)
{
    __locksmith_write(buf);
}

void __pthread_unregister_cancel(__pthread_unwind_buf_t *buf)
{
    __locksmith_read(buf);
}

/* Called by a cancelled thread once its handler ran: unwinding goes on to the thread's end. */
void __pthread_unwind_next(__pthread_unwind_buf_t *buf)
{
    __locksmith_read(buf);
    pthread_exit(NULL);
}

/* ---- walking file trees (<ftw.h>, which the stub unit does not include) ---- */

/* ftw and nftw call the program's function in the calling thread, with a path and a stat
 * buffer of their own (fresh for each walk). */
int ftw(const char *dir, int (*fn)(const char *path, const struct stat *st, int flag),
        int nopenfd)
{
    char *path = __locksmith_alloc();
    struct stat *st = __locksmith_alloc();
    __locksmith_copy(path, dir);
    __locksmith_write(st);
    return fn(path, st, __locksmith_nondet());
}

struct ftw_position {
    int base;
    int level;
};

int nftw(const char *dir,
         int (*fn)(const char *path, const struct stat *st, int flag, struct ftw_position *at),
         int nopenfd, int flags)
{
    char *path = __locksmith_alloc();
    struct stat *st = __locksmith_alloc();
    struct ftw_position *at = __locksmith_alloc();
    __locksmith_copy(path, dir);
    __locksmith_write(st);
    __locksmith_write(at);
    return fn(path, st, __locksmith_nondet(), at);
}

/* ---- binary trees (<search.h>, which the stub unit does not include) ---- */

/* A tree is the program's data, which the library does not lock: adding and deleting write the
 * root the caller hands over, finding reads it; a node begins with the key's pointer, which is
 * all the program may read of it. The comparison and the walk's action run in the calling
 * thread. */
void *tsearch(const void *key, void **rootp, int (*compar)(const void *, const void *))
{
    void **node = __locksmith_alloc();
    if (*rootp != NULL)
        compar(key, *(void **)*rootp);
    *node = (void *)key;
    *rootp = node;
    return node;
}

void *tfind(const void *key, void *const *rootp, int (*compar)(const void *, const void *))
{
    if (*rootp != NULL)
        compar(key, *(void **)*rootp);
    return *rootp;
}

void *tdelete(const void *restrict key, void **restrict rootp,
              int (*compar)(const void *, const void *))
{
    void *node = *rootp;
    if (node != NULL)
        compar(key, *(void **)node);
    *rootp = NULL;
    free(node);
    return rootp;
}

void twalk(const void *root, void (*action)(const void *nodep, int which, int depth))
{
    if (root != NULL)
        action(root, __locksmith_nondet(), __locksmith_nondet());
}

void tdestroy(void *root, void (*free_node)(void *key))
{
    if (root != NULL)
        free_node(*(void **)root);
    free(root);
}

/* ---- name service configuration ---- */

/* glibc's NSS configuration is kept by the library under its own lock: the call reads the
 * database and service names it is given. */
int __nss_configure_lookup(const char *dbname, const char *service)
{
    __locksmith_read(dbname);
    __locksmith_read(service);
    return __locksmith_nondet();
}
