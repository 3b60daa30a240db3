/* socket.c — sockets and name resolution: <sys/socket.h>, <netdb.h>, <arpa/inet.h>,
 * <netinet/in.h>, <poll.h>, <sys/select.h>, <sys/uio.h>, <sys/epoll.h>.
 *
 * A socket is a file descriptor; the kernel state behind it is synchronised by the kernel and is
 * not program memory, so only the caller's memory is modelled: receive functions write the
 * caller's buffer and address, send functions read them, option and address getters write their
 * out-parameters, poll/select read and rewrite their descriptor sets.
 *
 * Name resolution: getaddrinfo allocates the whole result list (one abstract object stands for all
 * its nodes, with separate objects for the addresses and canonical names). gethostbyname,
 * gethostbyaddr and getservbyname return static storage that every call overwrites (glibc's are
 * static and unlocked: concurrent callers race); their `_r` forms write only the caller's result
 * and buffer. inet_ntoa's buffer is thread-local in glibc, so its
 * stub uses a _Thread_local buffer. The epoll interest list keeps the caller's epoll_data (often a
 * pointer) and hands it back from epoll_wait; that flow is kept through a _Thread_local conduit,
 * because the kernel's list itself is synchronised and must never be reported as a race. */

/* ---- creating and connecting sockets ---- */

int socket(int domain, int type, int protocol)
{
    return __locksmith_nondet();
}

int socketpair(int domain, int type, int protocol, int sv[2])
{
    __locksmith_write(sv);
    return __locksmith_nondet();
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
    __locksmith_read(addr);
    return __locksmith_nondet();
}

int listen(int fd, int backlog)
{
    return __locksmith_nondet();
}

int accept(int fd, struct sockaddr *restrict addr, socklen_t *restrict len)
{
    if (addr != NULL) {
        __locksmith_read(len);
        __locksmith_write(addr);
        __locksmith_write(len);
    }
    return __locksmith_nondet();
}

/* GNU */
int accept4(int fd, struct sockaddr *restrict addr, socklen_t *restrict len, int flags)
{
    if (addr != NULL) {
        __locksmith_read(len);
        __locksmith_write(addr);
        __locksmith_write(len);
    }
    return __locksmith_nondet();
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    __locksmith_read(addr);
    return __locksmith_nondet();
}

int shutdown(int fd, int how)
{
    return __locksmith_nondet();
}

int getsockname(int fd, struct sockaddr *restrict addr, socklen_t *restrict len)
{
    __locksmith_read(len);
    __locksmith_write(addr);
    __locksmith_write(len);
    return __locksmith_nondet();
}

int getpeername(int fd, struct sockaddr *restrict addr, socklen_t *restrict len)
{
    __locksmith_read(len);
    __locksmith_write(addr);
    __locksmith_write(len);
    return __locksmith_nondet();
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
    __locksmith_read(val);
    return __locksmith_nondet();
}

int getsockopt(int fd, int level, int name, void *restrict val, socklen_t *restrict len)
{
    __locksmith_read(len);
    __locksmith_write(val);
    __locksmith_write(len);
    return __locksmith_nondet();
}

/* ---- sending and receiving ---- */

ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    __locksmith_read(buf);
    return __locksmith_nondet();
}

ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *addr,
               socklen_t len)
{
    __locksmith_read(buf);
    if (addr != NULL)
        __locksmith_read(addr);
    return __locksmith_nondet();
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
    if (msg->msg_name != NULL)
        __locksmith_read(msg->msg_name);
    __locksmith_read(msg->msg_iov);
    __locksmith_read(msg->msg_iov[0].iov_base);
    if (msg->msg_control != NULL)
        __locksmith_read(msg->msg_control);
    return __locksmith_nondet();
}

ssize_t recv(int fd, void *buf, size_t n, int flags)
{
    __locksmith_write(buf);
    return __locksmith_nondet();
}

ssize_t recvfrom(int fd, void *restrict buf, size_t n, int flags, struct sockaddr *restrict addr,
                 socklen_t *restrict len)
{
    __locksmith_write(buf);
    if (addr != NULL) {
        __locksmith_read(len);
        __locksmith_write(addr);
        __locksmith_write(len);
    }
    return __locksmith_nondet();
}

/* Fills the buffers the iovec array points to, the address and the control data, and updates the
 * header's lengths and flags. */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
    if (msg->msg_name != NULL)
        __locksmith_write(msg->msg_name);
    __locksmith_read(msg->msg_iov);
    __locksmith_write(msg->msg_iov[0].iov_base);
    if (msg->msg_control != NULL)
        __locksmith_write(msg->msg_control);
    msg->msg_namelen = __locksmith_nondet();
    msg->msg_controllen = __locksmith_nondet();
    msg->msg_flags = __locksmith_nondet();
    return __locksmith_nondet();
}

ssize_t readv(int fd, const struct iovec *iov, int n)
{
    __locksmith_read(iov);
    __locksmith_write(iov[0].iov_base);
    return __locksmith_nondet();
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    __locksmith_read(iov);
    __locksmith_read(iov[0].iov_base);
    return __locksmith_nondet();
}

/* ---- waiting for descriptors ---- */

/* poll reads each entry's `events` and writes its `revents`. (glibc declares fds write-only for
 * gcc's access warnings; writing before reading keeps gcc quiet, and the order of two accesses
 * within one call makes no difference to the analysis.) */
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    __locksmith_write(fds);
    __locksmith_read(fds);
    return __locksmith_nondet();
}

int select(int n, fd_set *restrict rd, fd_set *restrict wr, fd_set *restrict ex,
           struct timeval *restrict timeout)
{
    if (rd != NULL) {
        __locksmith_read(rd);
        __locksmith_write(rd);
    }
    if (wr != NULL) {
        __locksmith_read(wr);
        __locksmith_write(wr);
    }
    if (ex != NULL) {
        __locksmith_read(ex);
        __locksmith_write(ex);
    }
    /* Linux stores the time left. */
    if (timeout != NULL) {
        __locksmith_read(timeout);
        __locksmith_write(timeout);
    }
    return __locksmith_nondet();
}

int pselect(int n, fd_set *restrict rd, fd_set *restrict wr, fd_set *restrict ex,
            const struct timespec *restrict timeout, const sigset_t *restrict mask)
{
    if (rd != NULL) {
        __locksmith_read(rd);
        __locksmith_write(rd);
    }
    if (wr != NULL) {
        __locksmith_read(wr);
        __locksmith_write(wr);
    }
    if (ex != NULL) {
        __locksmith_read(ex);
        __locksmith_write(ex);
    }
    if (timeout != NULL)
        __locksmith_read(timeout);
    if (mask != NULL)
        __locksmith_read(mask);
    return __locksmith_nondet();
}

/* The kernel's interest list, as far as the caller's data is concerned (see the top comment). */
static _Thread_local struct epoll_event epoll_interest;

int epoll_create(int size)
{
    return __locksmith_nondet();
}

int epoll_create1(int flags)
{
    return __locksmith_nondet();
}

int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event)
{
    if (event != NULL)
        __locksmith_copy(&epoll_interest, event);
    return __locksmith_nondet();
}

int epoll_wait(int epfd, struct epoll_event *events, int max, int timeout)
{
    __locksmith_copy(events, &epoll_interest);
    return __locksmith_nondet();
}

/* ---- byte order (macros when optimising; undefined here so the functions can be defined) ---- */

#undef htonl
#undef htons
#undef ntohl
#undef ntohs

uint32_t htonl(uint32_t x)
{
    return __locksmith_nondet();
}

uint16_t htons(uint16_t x)
{
    return __locksmith_nondet();
}

uint32_t ntohl(uint32_t x)
{
    return __locksmith_nondet();
}

uint16_t ntohs(uint16_t x)
{
    return __locksmith_nondet();
}

/* ---- addresses as text ---- */

in_addr_t inet_addr(const char *cp)
{
    __locksmith_read(cp);
    return __locksmith_nondet();
}

int inet_aton(const char *cp, struct in_addr *inp)
{
    __locksmith_read(cp);
    __locksmith_write(inp);
    return __locksmith_nondet();
}

static _Thread_local char inet_ntoa_buffer[18];

char *inet_ntoa(struct in_addr in)
{
    __locksmith_write(inet_ntoa_buffer);
    return inet_ntoa_buffer;
}

/* The text of a resolver error: a constant string in glibc. */
static const char hstrerror_message[] = "Unknown resolver error";

const char *hstrerror(int err)
{
    return hstrerror_message;
}

unsigned int if_nametoindex(const char *name)
{
    __locksmith_read(name);
    return __locksmith_nondet();
}

int inet_pton(int af, const char *restrict src, void *restrict dst)
{
    __locksmith_read(src);
    __locksmith_write(dst);
    return __locksmith_nondet();
}

const char *inet_ntop(int af, const void *restrict src, char *restrict dst, socklen_t size)
{
    __locksmith_read(src);
    __locksmith_write(dst);
    return dst;
}

/* ---- name resolution ---- */

/* The result list: nodes (all one object, so ai_next points back to it), addresses and canonical
 * names are fresh objects; *res receives the first node. */
int getaddrinfo(const char *restrict node, const char *restrict service,
                const struct addrinfo *restrict hints, struct addrinfo **restrict res)
{
    struct addrinfo *ai = __locksmith_alloc();
    struct sockaddr *addr = __locksmith_alloc();
    char *canon = __locksmith_alloc();
    if (node != NULL)
        __locksmith_read(node);
    if (service != NULL)
        __locksmith_read(service);
    if (hints != NULL)
        __locksmith_read(hints);
    __locksmith_write(addr);
    __locksmith_write(canon);
    __locksmith_write(ai);
    ai->ai_addr = addr;
    ai->ai_canonname = canon;
    ai->ai_next = ai;
    *res = ai;
    return __locksmith_nondet();
}

void freeaddrinfo(struct addrinfo *res)
{
    free(res);
}

static const char gai_strerror_message[] = "Unknown error";

const char *gai_strerror(int code)
{
    return gai_strerror_message;
}

int getnameinfo(const struct sockaddr *restrict addr, socklen_t addrlen, char *restrict host,
                socklen_t hostlen, char *restrict serv, socklen_t servlen, int flags)
{
    __locksmith_read(addr);
    if (host != NULL)
        __locksmith_write(host);
    if (serv != NULL)
        __locksmith_write(serv);
    return __locksmith_nondet();
}

/* The static result of gethostbyname and gethostbyaddr, overwritten by every call. */
static struct hostent hostent_result;
static char hostent_name[256];
static char *hostent_aliases[1];
static char hostent_address[16];
static char *hostent_addresses[2];

static struct hostent *hostent_fill(void)
{
    hostent_addresses[0] = hostent_address;
    hostent_addresses[1] = NULL;
    hostent_aliases[0] = NULL;
    __locksmith_write(hostent_address);
    hostent_result.h_name = hostent_name;
    hostent_result.h_aliases = hostent_aliases;
    hostent_result.h_addrtype = __locksmith_nondet();
    hostent_result.h_length = __locksmith_nondet();
    hostent_result.h_addr_list = hostent_addresses;
    return &hostent_result;
}

struct hostent *gethostbyname(const char *name)
{
    __locksmith_copy(hostent_name, name);
    return hostent_fill();
}

struct hostent *gethostbyaddr(const void *addr, socklen_t len, int type)
{
    __locksmith_read(addr);
    __locksmith_write(hostent_name);
    return hostent_fill();
}

/* The reentrant forms keep nothing: the result is the caller's `ret`, its strings and addresses
 * are in the caller's `buf` (the arrays of pointers to them too, a fresh object here), and
 * `*result` points to `ret` (or is NULL). */
static void hostent_fill_r(struct hostent *ret, char *buf, struct hostent **result, int *h_errnop)
{
    char **lists = __locksmith_alloc();
    __locksmith_write(buf);
    lists[0] = buf;
    ret->h_name = buf;
    ret->h_aliases = lists;
    ret->h_addrtype = __locksmith_nondet();
    ret->h_length = __locksmith_nondet();
    ret->h_addr_list = lists;
    *result = __locksmith_nondet() ? ret : NULL;
    if (h_errnop != NULL)
        *h_errnop = __locksmith_nondet();
}

int gethostbyname_r(const char *restrict name, struct hostent *restrict ret, char *restrict buf,
                    size_t len, struct hostent **restrict result, int *restrict h_errnop)
{
    __locksmith_read(name);
    hostent_fill_r(ret, buf, result, h_errnop);
    return __locksmith_nondet();
}

int gethostbyname2_r(const char *restrict name, int af, struct hostent *restrict ret,
                     char *restrict buf, size_t len, struct hostent **restrict result,
                     int *restrict h_errnop)
{
    __locksmith_read(name);
    hostent_fill_r(ret, buf, result, h_errnop);
    return __locksmith_nondet();
}

int gethostbyaddr_r(const void *restrict addr, socklen_t addrlen, int type,
                    struct hostent *restrict ret, char *restrict buf, size_t len,
                    struct hostent **restrict result, int *restrict h_errnop)
{
    __locksmith_read(addr);
    hostent_fill_r(ret, buf, result, h_errnop);
    return __locksmith_nondet();
}

static struct servent servent_result;
static char servent_name[64];
static char servent_proto[16];
static char *servent_aliases[1];

struct servent *getservbyname(const char *name, const char *proto)
{
    __locksmith_copy(servent_name, name);
    if (proto != NULL)
        __locksmith_copy(servent_proto, proto);
    servent_aliases[0] = NULL;
    servent_result.s_name = servent_name;
    servent_result.s_aliases = servent_aliases;
    servent_result.s_port = __locksmith_nondet();
    servent_result.s_proto = servent_proto;
    return &servent_result;
}
