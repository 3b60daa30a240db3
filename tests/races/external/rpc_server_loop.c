/* Sun RPC runs the program's procedures in the thread that calls its loop: `svc_run` calls the
 * dispatch procedure `svc_register` kept, and `svc_sendreply` calls the XDR procedure it is
 * given, before they return. Only main runs the loop, so `served`, written by the dispatch
 * procedure and read by main after the loop, is main's alone (NORACE); `ticks` is also written
 * by a thread main started (RACE on both). The library is compiled by gcc only (a stand-in for
 * libtirpc); locksmith uses its RPC model. */
#include <pthread.h>
#include <stdio.h>

typedef int bool_t;
typedef struct rpc_xprt SVCXPRT;
typedef struct rpc_xdr XDR;
typedef bool_t (*xdrproc_t)(XDR *, void *);
struct svc_req {
    unsigned long rq_prog, rq_vers, rq_proc;
};

SVCXPRT *svcudp_create(int sock);
bool_t svc_register(SVCXPRT *xprt, unsigned long prog, unsigned long vers,
                    void (*dispatch)(struct svc_req *, SVCXPRT *), unsigned long protocol);
void svc_run(void);
bool_t svc_sendreply(SVCXPRT *xprt, xdrproc_t results, char *location);
bool_t xdr_int(XDR *xdrs, int *ip);

#ifndef __LOCKSMITH__
struct rpc_xprt {
    int sock;
};
static struct rpc_xprt the_xprt;
static void (*the_dispatch)(struct svc_req *, SVCXPRT *);
SVCXPRT *svcudp_create(int sock)
{
    the_xprt.sock = sock;
    return &the_xprt;
}
bool_t svc_register(SVCXPRT *xprt, unsigned long prog, unsigned long vers,
                    void (*dispatch)(struct svc_req *, SVCXPRT *), unsigned long protocol)
{
    (void)xprt, (void)prog, (void)vers, (void)protocol;
    the_dispatch = dispatch;
    return 1;
}
void svc_run(void)
{
    struct svc_req rq = {1, 1, 0};
    for (int i = 0; i < 3; i++)
        the_dispatch(&rq, &the_xprt);
}
bool_t svc_sendreply(SVCXPRT *xprt, xdrproc_t results, char *location)
{
    (void)xprt;
    return results(NULL, location);
}
bool_t xdr_int(XDR *xdrs, int *ip)
{
    (void)xdrs;
    return *ip >= 0;
}
#endif

static int served;
static long ticks;

static void dispatch(struct svc_req *rq, SVCXPRT *xprt)
{
    served += (int)rq->rq_proc + 1; // NORACE
    ticks++; // RACE
    svc_sendreply(xprt, (xdrproc_t)xdr_int, (char *)&served); // NORACE
}

static void *ticker(void *arg)
{
    ticks++; // RACE
    return arg;
}

int main(void)
{
    pthread_t t;
    SVCXPRT *xprt = svcudp_create(-1);
    svc_register(xprt, 100007, 2, dispatch, 17);
    pthread_create(&t, NULL, ticker, NULL);
    svc_run();
    pthread_join(t, NULL);
    printf("%d %ld\n", served, ticks); // NORACE
    return 0;
}
