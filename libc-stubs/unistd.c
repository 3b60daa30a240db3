/* unistd.c — <unistd.h>: file descriptors, files by name, processes, sleeping.
 *
 * A file descriptor is an int, and the kernel objects behind it (open files, pipes) are not
 * program memory, so only the caller's buffers are modelled: read/pread write theirs, write/pwrite
 * read theirs, path arguments are read. Everything else returns an unknown value.
 *
 * The exec family does not return on success; its stubs read their arguments and return -1, which
 * is what the caller sees when exec fails. fork is an ordinary call returning an unknown pid: the
 * child is a separate process, not a thread, so it shares no memory with the parent; in the
 * forking thread it runs the handlers pthread_atfork registered for before and after. */

ssize_t read(int fd, void *buf, size_t n)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

ssize_t pread(int fd, void *buf, size_t n, off_t offset)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

ssize_t write(int fd, const void *buf, size_t n)
{
    __locksmith_read(buf);
    return __locksmith_nondet();
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset)
{
    __locksmith_read(buf);
    return __locksmith_nondet();
}

int close(int fd)
{
    return __locksmith_nondet();
}

off_t lseek(int fd, off_t offset, int whence)
{
    return __locksmith_nondet();
}

int dup(int fd)
{
    return __locksmith_nondet();
}

int dup2(int fd, int fd2)
{
    return __locksmith_nondet();
}

int pipe(int fds[2])
{
    __locksmith_write(fds);
    return __locksmith_nondet();
}

/* GNU */
int pipe2(int fds[2], int flags)
{
    __locksmith_write(fds);
    return __locksmith_nondet();
}

int fsync(int fd)
{
    return __locksmith_nondet();
}

int fdatasync(int fd)
{
    return __locksmith_nondet();
}

int ftruncate(int fd, off_t length)
{
    return __locksmith_nondet();
}

int truncate(const char *path, off_t length)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int isatty(int fd)
{
    return __locksmith_nondet();
}

/* ttyname returns a static buffer that each call overwrites. */
static char ttyname_buffer[64];

char *ttyname(int fd)
{
    __locksmith_write(ttyname_buffer);
    return ttyname_buffer;
}

int ttyname_r(int fd, char *buf, size_t len)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

/* ---- files and directories by name ---- */

int access(const char *path, int mode)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int unlink(const char *path)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int rmdir(const char *path)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int chdir(const char *path)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int fchdir(int fd)
{
    return __locksmith_nondet();
}

/* With a null buffer, getcwd allocates the result. */
char *getcwd(char *buf, size_t size)
{
    if (buf == NULL)
        buf = __locksmith_alloc();
    __locksmith_write(buf);
    return buf;
}

int link(const char *from, const char *to)
{
    __locksmith_read(from);
    __locksmith_read(to);
    return __locksmith_nondet();
}

int symlink(const char *from, const char *to)
{
    __locksmith_read(from);
    __locksmith_read(to);
    return __locksmith_nondet();
}

ssize_t readlink(const char *restrict path, char *restrict buf, size_t len)
{
    __locksmith_read(path);
    __locksmith_write(buf);
    return __locksmith_nondet();
}

int chown(const char *path, uid_t owner, gid_t group)
{
    __locksmith_read(path);
    return __locksmith_nondet();
}

int fchown(int fd, uid_t owner, gid_t group)
{
    return __locksmith_nondet();
}

/* ---- sleeping ---- */

unsigned int sleep(unsigned int seconds)
{
    return __locksmith_nondet();
}

int usleep(useconds_t usec)
{
    return __locksmith_nondet();
}

int pause(void)
{
    return __locksmith_nondet();
}

unsigned int alarm(unsigned int seconds)
{
    return __locksmith_nondet();
}

/* ---- process identity and configuration ---- */

pid_t getpid(void)
{
    return __locksmith_nondet();
}

pid_t getppid(void)
{
    return __locksmith_nondet();
}

uid_t getuid(void)
{
    return __locksmith_nondet();
}

uid_t geteuid(void)
{
    return __locksmith_nondet();
}

gid_t getgid(void)
{
    return __locksmith_nondet();
}

gid_t getegid(void)
{
    return __locksmith_nondet();
}

pid_t setsid(void)
{
    return __locksmith_nondet();
}

/* Setting a file's times reads the path and the times given. */
int utimes(const char *path, const struct timeval times[2])
{
    __locksmith_read(path);
    if (times != NULL)
        __locksmith_read(times);
    return __locksmith_nondet();
}

/* Process credentials are kernel state, not program memory. */
int setuid(uid_t uid)
{
    return __locksmith_nondet();
}

int setgid(gid_t gid)
{
    return __locksmith_nondet();
}

int setpgrp(void)
{
    return __locksmith_nondet();
}

int initgroups(const char *user, gid_t group)
{
    __locksmith_read(user);
    return __locksmith_nondet();
}

long sysconf(int name)
{
    return __locksmith_nondet();
}

int getpagesize(void)
{
    return __locksmith_nondet();
}

int getdtablesize(void)
{
    return __locksmith_nondet();
}

int gethostname(char *name, size_t len)
{
    __locksmith_write(name);
    return __locksmith_nondet();
}

/* ---- creating processes ---- */

/* pthread_atfork's handlers: `fork` calls the prepare handlers, then (in the parent) the parent
 * handlers, in the thread that forks; the child handlers run in the child process, whose memory
 * is its own. The registrations are kept per thread (the library locks its list): a conduit, as
 * the epoll interest list is, that carries every handler registered to every `fork`. */
static _Thread_local void (*atfork_prepare)(void);
static _Thread_local void (*atfork_parent)(void);

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    if (prepare != NULL)
        atfork_prepare = prepare;
    if (parent != NULL)
        atfork_parent = parent;
    return __locksmith_nondet();
}

pid_t fork(void)
{
    if (atfork_prepare != NULL)
        atfork_prepare();
    if (atfork_parent != NULL)
        atfork_parent();
    return __locksmith_nondet();
}

int execv(const char *path, char *const argv[])
{
    __locksmith_read(path);
    __locksmith_read(argv);
    __locksmith_read(argv[0]);
    return -1;
}

int execvp(const char *file, char *const argv[])
{
    __locksmith_read(file);
    __locksmith_read(argv);
    __locksmith_read(argv[0]);
    return -1;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    __locksmith_read(path);
    __locksmith_read(argv);
    __locksmith_read(argv[0]);
    __locksmith_read(envp);
    __locksmith_read(envp[0]);
    return -1;
}

int execl(const char *path, const char *arg, ...)
{
    __locksmith_read(path);
    __locksmith_read(arg);
    __locksmith_read_varargs();
    return -1;
}

int execlp(const char *file, const char *arg, ...)
{
    __locksmith_read(file);
    __locksmith_read(arg);
    __locksmith_read_varargs();
    return -1;
}

int execle(const char *path, const char *arg, ...)
{
    __locksmith_read(path);
    __locksmith_read(arg);
    __locksmith_read_varargs();
    return -1;
}

/* A raw system call: the kernel's state is not program memory; it may read and write any buffer
 * among the arguments. */
long syscall(long number, ...)
{
    __locksmith_read_varargs();
    __locksmith_write_varargs();
    return __locksmith_nondet();
}
