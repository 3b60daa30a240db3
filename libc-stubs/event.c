/* event.c — libevent's event loop (<event.h>, <event2/event.h>, versions 1 and 2). A loop runs
 * the callbacks of the events registered with it in the thread that runs it (`event_base_loop`,
 * `event_base_dispatch`, `event_dispatch`, `event_loop`), never in a thread of its own:
 * `event_set`, `event_assign`, `event_new` and `event_base_once` keep the callback and its
 * argument, and a loop calls them with a descriptor, the events and that argument before it
 * returns. One registration table stands for every base's, so a loop is taken to run every
 * callback registered with any base: that can only add calls. Setting an event up writes the
 * program's event struct; adding, deleting and activating it touch only the base's own state,
 * which libevent locks itself when threads use it (`evthread_use_pthreads`). Buffered events,
 * HTTP and DNS stay code locksmith cannot see.
 *
 * The stub unit has no libevent headers, so events and bases are `void *` here; the `void *`
 * model gives the program's types their own views of them. */

typedef void (*event_callback_t)(int, short, void *);

static event_callback_t event_callback;
static void *event_argument;

static void event_register(void *ev, event_callback_t cb, void *arg)
{
    if (ev != NULL)
        __locksmith_write(ev);
    event_callback = cb;
    event_argument = arg;
}

static void event_run(void)
{
    if (event_callback != NULL)
        event_callback(__locksmith_nondet(), (short)__locksmith_nondet(), event_argument);
}

void event_set(void *ev, int fd, short events, event_callback_t cb, void *arg)
{
    event_register(ev, cb, arg);
}

int event_assign(void *ev, void *base, int fd, short events, event_callback_t cb, void *arg)
{
    event_register(ev, cb, arg);
    return __locksmith_nondet();
}

void *event_new(void *base, int fd, short events, event_callback_t cb, void *arg)
{
    void *ev = __locksmith_alloc();
    event_register(ev, cb, arg);
    return ev;
}

int event_base_once(void *base, int fd, short events, event_callback_t cb, void *arg,
                    const void *timeout)
{
    event_register(NULL, cb, arg);
    return __locksmith_nondet();
}

int event_base_set(void *base, void *ev)
{
    __locksmith_write(ev);
    return __locksmith_nondet();
}

int event_add(void *ev, const void *timeout)
{
    return __locksmith_nondet();
}

int event_del(void *ev)
{
    return __locksmith_nondet();
}

void event_active(void *ev, int res, short ncalls)
{
}

void event_free(void *ev)
{
}

int event_pending(const void *ev, short events, void *timeout)
{
    __locksmith_read(ev);
    return __locksmith_nondet();
}

int event_initialized(const void *ev)
{
    __locksmith_read(ev);
    return __locksmith_nondet();
}

void *event_base_new(void)
{
    return __locksmith_alloc();
}

void *event_init(void)
{
    return __locksmith_alloc();
}

void event_base_free(void *base)
{
}

int event_base_loop(void *base, int flags)
{
    event_run();
    return __locksmith_nondet();
}

int event_base_dispatch(void *base)
{
    event_run();
    return __locksmith_nondet();
}

int event_loop(int flags)
{
    event_run();
    return __locksmith_nondet();
}

int event_dispatch(void)
{
    event_run();
    return __locksmith_nondet();
}

int event_base_loopexit(void *base, const void *timeout)
{
    return __locksmith_nondet();
}

int event_base_loopbreak(void *base)
{
    return __locksmith_nondet();
}

int event_loopexit(const void *timeout)
{
    return __locksmith_nondet();
}
