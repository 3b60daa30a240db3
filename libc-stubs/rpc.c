/* rpc.c — Sun RPC (<rpc/rpc.h>: glibc's once, libtirpc's now). The server loop and the
 * broadcast call run the program's procedures in the thread that calls them: `svc_register`
 * keeps the dispatch procedure and its transport (the library's own registration table, shared
 * by every thread), `svc_run` and `svc_getreq*` call it with the request they received;
 * `svc_sendreply` and `clnt_broadcast` call the program's XDR procedures, and `clnt_broadcast`
 * its `eachresult`, before they return. An XDR procedure reads or writes the object it is given
 * (encoding reads, decoding writes: both are modelled) and its stream, which the calls here make
 * fresh for each call.
 *
 * The stub unit has no RPC headers, so transports, requests and streams are `void *` here; the
 * `void *` model gives the program's types their own views of them. Client handles
 * (`clntudp_create` and the calls through their operation tables) stay code locksmith cannot
 * see. */

typedef int rpc_bool_t;
typedef rpc_bool_t (*rpc_xdrproc_t)(void *, void *);
typedef void (*rpc_dispatch_t)(void *, void *);

static rpc_dispatch_t rpc_dispatch;
static void *rpc_transport;
static char rpc_request[64];

rpc_bool_t svc_register(void *xprt, unsigned long prog, unsigned long vers,
                        rpc_dispatch_t dispatch, int protocol)
{
    rpc_transport = xprt;
    rpc_dispatch = dispatch;
    return __locksmith_nondet();
}

void svc_unregister(unsigned long prog, unsigned long vers)
{
    rpc_dispatch = NULL;
}

static void rpc_serve(void)
{
    __locksmith_write(rpc_request);
    if (rpc_dispatch != NULL)
        rpc_dispatch(rpc_request, rpc_transport);
}

void svc_run(void)
{
    rpc_serve();
}

void svc_getreq(int rdfds)
{
    rpc_serve();
}

void svc_getreqset(fd_set *readfds)
{
    __locksmith_read(readfds);
    rpc_serve();
}

void svc_getreq_common(int fd)
{
    rpc_serve();
}

void svc_getreq_poll(struct pollfd *pfdp, int pollretval)
{
    __locksmith_read(pfdp);
    rpc_serve();
}

rpc_bool_t svc_sendreply(void *xprt, rpc_xdrproc_t results, void *location)
{
    void *xdrs = __locksmith_alloc();
    results(xdrs, location);
    return __locksmith_nondet();
}

void svcerr_decode(void *xprt)
{
}

void svcerr_noproc(void *xprt)
{
}

void svcerr_systemerr(void *xprt)
{
}

void svcerr_noprog(void *xprt)
{
}

void svcerr_weakauth(void *xprt)
{
}

int clnt_broadcast(unsigned long prog, unsigned long vers, unsigned long proc,
                   rpc_xdrproc_t xargs, void *argsp, rpc_xdrproc_t xresults, void *resultsp,
                   rpc_bool_t (*eachresult)(void *, void *))
{
    void *xdrs = __locksmith_alloc();
    struct sockaddr_in *from = __locksmith_alloc();
    xargs(xdrs, argsp);
    xresults(xdrs, resultsp);
    __locksmith_write(from);
    eachresult(resultsp, from);
    return __locksmith_nondet();
}

/* ---- XDR primitives: each reads and writes its object and its stream ---- */

static rpc_bool_t rpc_xdr(void *xdrs, void *objp)
{
    __locksmith_read(xdrs);
    __locksmith_write(xdrs);
    __locksmith_read(objp);
    __locksmith_write(objp);
    return __locksmith_nondet();
}

rpc_bool_t xdr_void(void)
{
    return __locksmith_nondet();
}

rpc_bool_t xdr_bool(void *xdrs, int *bp)
{
    return rpc_xdr(xdrs, bp);
}

rpc_bool_t xdr_enum(void *xdrs, int *ep)
{
    return rpc_xdr(xdrs, ep);
}

rpc_bool_t xdr_int(void *xdrs, int *ip)
{
    return rpc_xdr(xdrs, ip);
}

rpc_bool_t xdr_u_int(void *xdrs, unsigned int *up)
{
    return rpc_xdr(xdrs, up);
}

rpc_bool_t xdr_long(void *xdrs, long *lp)
{
    return rpc_xdr(xdrs, lp);
}

rpc_bool_t xdr_u_long(void *xdrs, unsigned long *ulp)
{
    return rpc_xdr(xdrs, ulp);
}

rpc_bool_t xdr_short(void *xdrs, short *sp)
{
    return rpc_xdr(xdrs, sp);
}

rpc_bool_t xdr_u_short(void *xdrs, unsigned short *usp)
{
    return rpc_xdr(xdrs, usp);
}

rpc_bool_t xdr_char(void *xdrs, char *cp)
{
    return rpc_xdr(xdrs, cp);
}

rpc_bool_t xdr_u_char(void *xdrs, unsigned char *cp)
{
    return rpc_xdr(xdrs, cp);
}

rpc_bool_t xdr_opaque(void *xdrs, char *cp, unsigned int cnt)
{
    return rpc_xdr(xdrs, cp);
}

/* Decoding into a NULL string allocates it. */
rpc_bool_t xdr_string(void *xdrs, char **cpp, unsigned int maxsize)
{
    __locksmith_read(cpp);
    if (*cpp == NULL)
        *cpp = __locksmith_alloc();
    return rpc_xdr(xdrs, *cpp);
}

rpc_bool_t xdr_vector(void *xdrs, char *basep, unsigned int nelem, unsigned int elemsize,
                      rpc_xdrproc_t elem)
{
    elem(xdrs, basep);
    return rpc_xdr(xdrs, basep);
}

rpc_bool_t xdr_array(void *xdrs, char **addrp, unsigned int *sizep, unsigned int maxsize,
                     unsigned int elsize, rpc_xdrproc_t elem)
{
    __locksmith_read(addrp);
    if (*addrp == NULL)
        *addrp = __locksmith_alloc();
    rpc_xdr(xdrs, sizep);
    elem(xdrs, *addrp);
    return rpc_xdr(xdrs, *addrp);
}

/* Frees what an XDR procedure decoded into `objp`: the procedure runs on a freeing stream. */
void xdr_free(rpc_xdrproc_t proc, char *objp)
{
    void *xdrs = __locksmith_alloc();
    proc(xdrs, objp);
}

rpc_bool_t xdr_pmap(void *xdrs, void *regs)
{
    return rpc_xdr(xdrs, regs);
}

/* ---- the portmapper and error texts ---- */

/* pmap_set and pmap_unset ask the portmapper through a client of their own, made and destroyed
 * within the call (its creation error goes to rpc_createerr, thread-local in glibc and
 * libtirpc): nothing the program can see is shared. */
rpc_bool_t pmap_set(unsigned long prog, unsigned long vers, int protocol, unsigned short port)
{
    return __locksmith_nondet();
}

rpc_bool_t pmap_unset(unsigned long prog, unsigned long vers)
{
    return __locksmith_nondet();
}

/* The text of an RPC status: a constant string. */
static const char rpc_status_text[] = "RPC: error";

char *clnt_sperrno(int status)
{
    return (char *)rpc_status_text;
}
