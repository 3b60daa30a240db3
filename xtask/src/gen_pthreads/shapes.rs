//! The code of each [`Shape`] besides the base server: what it adds to `common.h`, to `server.c`
//! and to `main`, the library of the callbacks shape, and the functions it gives every module.
//!
//! A part fills its share of a module's budget with units (a job, a callback, a batch of fork
//! sites, a call chain on the big struct, a function of macro uses, a function of requests on
//! the connection, a function of the interpreter), each counted in preprocessed lines as it is
//! made, and then adds the module's driver of them and a statement at the start of `<p>_run`.
//! Every lock a part takes is either a leaf (the pool's queue, a module's fork counter, the big
//! struct, the connection, the interpreter's registry, its allocation statistics and a module's
//! interpreter counters) or, in the macros, an object's lock taken before a module counter's
//! lock or the statistics' lock (the base server already takes an object's lock before the
//! statistics' lock), never the other way round, so the programs cannot deadlock.

use super::hubs::{hub_core, hub_header};
use super::{preprocessed_lines, Module, Shape, MAX_THREADS};

/// Scalar fields of `struct big_state`: C type and name.
const BIG_FIELDS: &[(&str, &str)] = &[
    ("long", "conns"),
    ("long", "accepts"),
    ("long", "closes"),
    ("long", "reads"),
    ("long", "writes"),
    ("long", "bytes_in"),
    ("long", "bytes_out"),
    ("int", "state"),
    ("int", "mode"),
    ("unsigned", "flags"),
    ("unsigned", "caps"),
    ("long", "errors"),
    ("long", "timeouts"),
    ("long", "retries"),
    ("int", "level"),
    ("int", "depth"),
    ("long", "version"),
    ("long", "epoch"),
    ("long", "generation"),
    ("long", "hits"),
    ("long", "misses"),
    ("long", "evictions"),
    ("long", "inserts"),
    ("long", "deletes"),
    ("long", "lookups"),
    ("int", "workers"),
    ("int", "idle"),
    ("int", "busy"),
    ("long", "queued"),
    ("long", "dequeued"),
    ("long", "dropped"),
    ("long", "latency_sum"),
    ("long", "latency_max"),
    ("unsigned", "mask"),
    ("long", "checksum"),
    ("long", "last_id"),
    ("int", "pending"),
    ("long", "total"),
];

/// The deepest nesting of calls through the interpreter's dispatcher: past it, `vm_calli`
/// returns without calling, so that the cycle of calls through the registry ends at run time.
const VM_MAX_DEPTH: usize = 3;
/// The length of `vm_global`'s histogram.
const VM_HIST: usize = 16;
/// The calls of the interpreter a worker makes in each of its iterations.
const VM_WORKER_CALLS: usize = 4;

/// The members of `struct big_state` of type `struct big_counter`.
const BIG_COUNTERS: &[&str] = &["net", "disk", "mem", "cpu"];
/// Lengths of the arrays of `struct big_state`.
const BIG_QUEUES: usize = 8;
const BIG_HIST: usize = 32;
const BIG_RING: usize = 16;

/// What one part adds to `common.h` (after the modules' interfaces).
pub(super) fn shape_header(part: Shape, modules: &[String]) -> String {
    match part {
        Shape::Pool => "
/* The thread pool of server.c: a job is a function pointer with its argument. */
struct job {
    void (*run)(void *arg);
    void *arg;
    struct job *next;
};

void pool_submit(void (*run)(void *arg), void *arg);
void pool_start(int nworkers);
void pool_stop(void);
"
        .to_string(),
        Shape::Callbacks => "
/* A library that is not part of the program's sources (lib.c stands in for it): it runs the
 * callbacks it is given, each in a thread of its own, until lib_shutdown. */
struct lib_ops {
    const char *name;
    void (*start)(void *ctx);
    void (*tick)(void *ctx);
    void (*stop)(void *ctx);
    void *ctx;
};

extern int lib_register(const char *name, void (*cb)(void *ctx), void *ctx);
extern int lib_register_ops(const struct lib_ops *ops);
extern void lib_shutdown(void);
"
        .to_string(),
        Shape::BigStruct => {
            let mut s = String::from(
                "
/* The server's state, one instance (big_global) shared by every module under its lock. */
struct big_counter {
    long count;
    long bytes;
    int state;
    unsigned flags;
};

struct big_limits {
    long lo;
    long hi;
    struct big_counter used;
};

struct big_state {
    pthread_mutex_t lock;
",
            );
            for (cty, f) in BIG_FIELDS {
                s.push_str(&format!("    {cty} {f};\n"));
            }
            for c in BIG_COUNTERS {
                s.push_str(&format!("    struct big_counter {c};\n"));
            }
            s.push_str(&format!(
                "    struct big_limits limits;
    struct big_counter queues[{BIG_QUEUES}];
    long hist[{BIG_HIST}];
    int ring[{BIG_RING}];
    char name[64];
}};

extern struct big_state big_global;
void big_init(struct big_state *b);\n"
            ));
            for m in modules {
                s.push_str(&format!("void {m}_attach(struct big_state *b);\n"));
            }
            s
        }
        Shape::Macros => "
/* Statement macros that take a lock around their statements. */
#define WITH_LOCK(m, ...) do { lock_acquire(m); __VA_ARGS__; lock_release(m); } while (0)
#define WITH_MUTEX(m, ...) do { pthread_mutex_lock(m); __VA_ARGS__; pthread_mutex_unlock(m); } while (0)
#define WITH_LOCK2(outer, inner, ...) \\
    do { lock_acquire(outer); lock_acquire(inner); __VA_ARGS__; lock_release(inner); lock_release(outer); } while (0)
#define STAT_INC(s, f) WITH_LOCK(&(s)->lock, (s)->f++)
#define STAT_ADD(s, f, v) WITH_LOCK(&(s)->lock, (s)->f += (v))
#define STAT_GET(s, f, out) WITH_LOCK(&(s)->lock, (out) = (long)(s)->f)
"
        .to_string(),
        Shape::Lazy => "
/* The connection of server.c: its reader thread is started by the first request. */
long conn_call(long op, long *reply);
void conn_free(long *reply);
void conn_close(void);
"
        .to_string(),
        Shape::Interp => {
            let mut s = format!(
                "
/* The interpreter embedded in server.c, as Lua is: modules register tables of C functions,
 * which are called by index or by name and call back into it. Each thread has a vm of its own. */
#define VM_HIST {VM_HIST}

struct vm {{
    int depth;
    long calls;
    long bytes;
}};

struct reg {{
    const char *name;
    int (*fn)(struct vm *L, int arg);
}};

struct vm_state {{
    pthread_mutex_t lock;
    long bytes;
    long allocs;
    long hist[VM_HIST];
}};

extern struct vm_state vm_global;
void vm_register(const struct reg *r);
int vm_find(const char *name);
int vm_calli(struct vm *L, int idx, int arg);
int vm_call(struct vm *L, const char *name, int arg);
void vm_open(struct vm *L);
void *vm_alloc(struct vm *L, size_t n);
void vm_free(struct vm *L, void *p, size_t n);\n"
            );
            for m in modules {
                s.push_str(&format!("void {m}_vm_init(void);\n"));
            }
            s
        }
        Shape::Dispatch | Shape::Drivers | Shape::Spawn | Shape::Commands => hub_header(part),
        Shape::Forks | Shape::Server | Shape::All => String::new(),
    }
}

/// What the parts add to `server.c` after its shared helpers: the pool, the big struct, the
/// connection, the interpreter and the hubs of `modules` ([`hub_core`]).
pub(super) fn shape_core(parts: &[Shape], modules: &[String]) -> String {
    let mut s = String::new();
    for part in parts {
        match part {
            Shape::Pool => s.push_str(
                "#define POOL_MAX_WORKERS 8

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cv = PTHREAD_COND_INITIALIZER;
static struct job *pool_head;
static struct job *pool_tail;
static int pool_done;
static long pool_ran;
static int pool_nworkers;
static pthread_t pool_threads[POOL_MAX_WORKERS];

void pool_submit(void (*run)(void *arg), void *arg)
{
    struct job *j = malloc(sizeof *j);

    if (j == NULL)
        abort();
    pthread_mutex_lock(&pool_mu);
    j->run = run;
    j->arg = arg;
    j->next = NULL;
    if (pool_tail != NULL)
        pool_tail->next = j;
    else
        pool_head = j;
    pool_tail = j;
    pthread_cond_signal(&pool_cv);
    pthread_mutex_unlock(&pool_mu);
}

static void *pool_worker(void *arg)
{
    long ran = 0;

    (void)arg;
    for (;;) {
        struct job *job;

        pthread_mutex_lock(&pool_mu);
        while (pool_head == NULL && !pool_done)
            pthread_cond_wait(&pool_cv, &pool_mu);
        job = pool_head;
        if (job == NULL) {
            pthread_mutex_unlock(&pool_mu);
            break;
        }
        pool_head = job->next;
        if (pool_head == NULL)
            pool_tail = NULL;
        pool_ran++;
        pthread_mutex_unlock(&pool_mu);
        job->run(job->arg);
        free(job);
        ran++;
    }
    stats_add(&server_stats, ran);
    return NULL;
}

void pool_start(int nworkers)
{
    int i;

    if (nworkers > POOL_MAX_WORKERS)
        nworkers = POOL_MAX_WORKERS;
    pool_nworkers = nworkers;
    for (i = 0; i < nworkers; i++)
        if (pthread_create(&pool_threads[i], NULL, pool_worker, NULL) != 0)
            abort();
}

void pool_stop(void)
{
    int i;

    pthread_mutex_lock(&pool_mu);
    pool_done = 1;
    pthread_cond_broadcast(&pool_cv);
    pthread_mutex_unlock(&pool_mu);
    for (i = 0; i < pool_nworkers; i++)
        pthread_join(pool_threads[i], NULL);
}

",
            ),
            Shape::BigStruct => s.push_str(
                "struct big_state big_global = { .lock = PTHREAD_MUTEX_INITIALIZER };

void big_init(struct big_state *b)
{
    lock_acquire(&b->lock);
    snprintf(b->name, sizeof b->name, \"%s\", \"server\");
    b->limits.lo = 0;
    b->limits.hi = 1;
    b->state = 1;
    lock_release(&b->lock);
}

",
            ),
            Shape::Lazy => s.push_str(
                "/* A connection to a back end. The reader thread that answers its requests is started
 * by the first request, from whichever module sends it; a request waits for its answer. */
struct conn_req {
    long op;
    long *reply;
    int done;
    struct conn_req *next;
};

static pthread_mutex_t conn_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t conn_req_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t conn_done_cv = PTHREAD_COND_INITIALIZER;
static struct conn_req *conn_head;
static int conn_started;
static int conn_closing;
static long conn_served;
static pthread_t conn_reader;

static void *conn_read_loop(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&conn_mu);
    for (;;) {
        struct conn_req *r;

        while (conn_head == NULL && !conn_closing)
            pthread_cond_wait(&conn_req_cv, &conn_mu);
        r = conn_head;
        if (r == NULL)
            break;
        conn_head = r->next;
        *r->reply += r->op * 3 + 1;
        r->done = 1;
        conn_served++;
        pthread_cond_broadcast(&conn_done_cv);
    }
    pthread_mutex_unlock(&conn_mu);
    return NULL;
}

/* Starts the reader if it is not running; called with conn_mu held. */
static void conn_ensure_reader(void)
{
    if (!conn_started) {
        conn_started = 1;
        if (pthread_create(&conn_reader, NULL, conn_read_loop, NULL) != 0)
            abort();
    }
}

long conn_call(long op, long *reply)
{
    struct conn_req r;
    long v;

    pthread_mutex_lock(&conn_mu);
    conn_ensure_reader();
    r.op = op;
    r.reply = reply;
    r.done = 0;
    r.next = conn_head;
    *reply = op;
    conn_head = &r;
    pthread_cond_signal(&conn_req_cv);
    while (!r.done)
        pthread_cond_wait(&conn_done_cv, &conn_mu);
    v = *reply;
    pthread_mutex_unlock(&conn_mu);
    return v;
}

/* Frees a reply buffer under the connection's lock, as the reader last wrote it under it. */
void conn_free(long *reply)
{
    pthread_mutex_lock(&conn_mu);
    free(reply);
    pthread_mutex_unlock(&conn_mu);
}

void conn_close(void)
{
    pthread_t reader;
    int started;

    pthread_mutex_lock(&conn_mu);
    conn_closing = 1;
    started = conn_started;
    reader = conn_reader;
    pthread_cond_broadcast(&conn_req_cv);
    pthread_mutex_unlock(&conn_mu);
    if (started)
        pthread_join(reader, NULL);
}

",
            ),
            Shape::Interp => s.push_str(&interp_core()),
            Shape::Dispatch | Shape::Drivers | Shape::Spawn | Shape::Commands => {
                s.push_str(&hub_core(*part, modules))
            }
            _ => {}
        }
    }
    s
}

/// The interpreter's core in `server.c`: the registry (a table of functions that grows, under
/// `vm_reg_mu`, and an index of their names by hash), the dispatcher by index and by name, and
/// the allocator, which counts its bytes in `vm_global`. Modules register before any thread
/// starts, so the threads read the table and the index without a lock.
fn interp_core() -> String {
    format!(
        "/* The embedded interpreter: the registry of the modules' functions, called by index or by
 * name, and the statistics of the objects they allocate. Modules register before any thread
 * starts; no lock is held while a function calls back into the dispatcher. */
#define VM_MAX_DEPTH {VM_MAX_DEPTH}

struct vm_state vm_global = {{ .lock = PTHREAD_MUTEX_INITIALIZER }};
static pthread_mutex_t vm_reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct reg *vm_table;
static int vm_nfuncs;
static int vm_cap;
static int *vm_slots;
static unsigned vm_nslots;

static unsigned vm_hash(const char *s)
{{
    unsigned h = 2166136261u;

    while (*s != '\\0')
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}}

/* Puts function idx into the index of names; called with vm_reg_mu held. */
static void vm_index(int idx)
{{
    unsigned k = vm_hash(vm_table[idx].name) & (vm_nslots - 1);

    while (vm_slots[k] >= 0)
        k = (k + 1) & (vm_nslots - 1);
    vm_slots[k] = idx;
}}

/* Makes room for one more function; called with vm_reg_mu held. */
static void vm_grow(void)
{{
    unsigned i;
    int f;

    if (vm_nfuncs == vm_cap) {{
        vm_cap = vm_cap > 0 ? 2 * vm_cap : 64;
        vm_table = realloc(vm_table, (size_t)vm_cap * sizeof *vm_table);
        if (vm_table == NULL)
            abort();
    }}
    if (2 * (unsigned)(vm_nfuncs + 1) > vm_nslots) {{
        free(vm_slots);
        vm_nslots = vm_nslots > 0 ? 2 * vm_nslots : 128;
        vm_slots = malloc(vm_nslots * sizeof *vm_slots);
        if (vm_slots == NULL)
            abort();
        for (i = 0; i < vm_nslots; i++)
            vm_slots[i] = -1;
        for (f = 0; f < vm_nfuncs; f++)
            vm_index(f);
    }}
}}

void vm_register(const struct reg *r)
{{
    pthread_mutex_lock(&vm_reg_mu);
    for (; r->name != NULL; r++) {{
        vm_grow();
        vm_table[vm_nfuncs] = *r;
        vm_index(vm_nfuncs);
        vm_nfuncs++;
    }}
    pthread_mutex_unlock(&vm_reg_mu);
}}

int vm_find(const char *name)
{{
    unsigned k;

    if (vm_nslots == 0)
        return -1;
    k = vm_hash(name) & (vm_nslots - 1);
    while (vm_slots[k] >= 0) {{
        if (strcmp(vm_table[vm_slots[k]].name, name) == 0)
            return vm_slots[k];
        k = (k + 1) & (vm_nslots - 1);
    }}
    return -1;
}}

int vm_calli(struct vm *L, int idx, int arg)
{{
    int r;

    if (vm_nfuncs == 0 || L->depth >= VM_MAX_DEPTH)
        return arg & 0xff;
    idx = (int)((unsigned)idx % (unsigned)vm_nfuncs);
    L->depth++;
    L->calls++;
    r = vm_table[idx].fn(L, arg);
    L->depth--;
    return r;
}}

int vm_call(struct vm *L, const char *name, int arg)
{{
    int idx = vm_find(name);

    if (idx < 0)
        return -1;
    return vm_calli(L, idx, arg);
}}

void vm_open(struct vm *L)
{{
    L->depth = 0;
    L->calls = 0;
    L->bytes = 0;
}}

void *vm_alloc(struct vm *L, size_t n)
{{
    void *p = malloc(n);

    if (p == NULL)
        abort();
    pthread_mutex_lock(&vm_global.lock);
    vm_global.bytes += (long)n;
    vm_global.allocs++;
    pthread_mutex_unlock(&vm_global.lock);
    L->bytes += (long)n;
    return p;
}}

void vm_free(struct vm *L, void *p, size_t n)
{{
    pthread_mutex_lock(&vm_global.lock);
    vm_global.bytes -= (long)n;
    pthread_mutex_unlock(&vm_global.lock);
    L->bytes -= (long)n;
    free(p);
}}

"
    )
}

/// `lib.c`, the library of the callbacks shape, which locksmith is not given. It runs every
/// callback (or every operation of a table, in turn) in a thread of its own, with at most
/// `LIB_SLOTS` of them at a time, and joins them all in `lib_shutdown`. It joins an old thread
/// under its own lock, which callbacks never take, and callers hold no lock when they register.
pub(super) fn library_file() -> String {
    "/* A stand-in for a library the analysis does not see: compile it with the program, but do
 * not analyse it. */
#include <pthread.h>
#include <stdlib.h>
#include \"common.h\"

#define LIB_SLOTS 16

struct lib_call {
    void (*cb)(void *ctx);
    const struct lib_ops *ops;
    void *ctx;
};

static pthread_mutex_t lib_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t lib_threads[LIB_SLOTS];
static int lib_busy[LIB_SLOTS];
static unsigned lib_next;

static void *lib_thread(void *arg)
{
    struct lib_call *c = arg;

    if (c->ops != NULL) {
        if (c->ops->start != NULL)
            c->ops->start(c->ops->ctx);
        if (c->ops->tick != NULL)
            c->ops->tick(c->ops->ctx);
        if (c->ops->stop != NULL)
            c->ops->stop(c->ops->ctx);
    } else {
        c->cb(c->ctx);
    }
    free(c);
    return NULL;
}

static int lib_start(void (*cb)(void *ctx), const struct lib_ops *ops, void *ctx)
{
    struct lib_call *c = malloc(sizeof *c);
    unsigned slot;

    if (c == NULL)
        abort();
    c->cb = cb;
    c->ops = ops;
    c->ctx = ctx;
    pthread_mutex_lock(&lib_mu);
    slot = lib_next++ % LIB_SLOTS;
    if (lib_busy[slot])
        pthread_join(lib_threads[slot], NULL);
    if (pthread_create(&lib_threads[slot], NULL, lib_thread, c) != 0)
        abort();
    lib_busy[slot] = 1;
    pthread_mutex_unlock(&lib_mu);
    return 0;
}

int lib_register(const char *name, void (*cb)(void *ctx), void *ctx)
{
    (void)name;
    return lib_start(cb, NULL, ctx);
}

int lib_register_ops(const struct lib_ops *ops)
{
    return lib_start(NULL, ops, NULL);
}

void lib_shutdown(void)
{
    int i;

    pthread_mutex_lock(&lib_mu);
    for (i = 0; i < LIB_SLOTS; i++)
        if (lib_busy[i]) {
            pthread_join(lib_threads[i], NULL);
            lib_busy[i] = 0;
        }
    pthread_mutex_unlock(&lib_mu);
}
"
    .to_string()
}

/// Calls `unit(k)` for k = 0, 1, … until the lines it reports, with `fixed`, reach about
/// `budget`: it stops before a unit that would probably overshoot by more than half a unit, so
/// sizes are centred on the budget, but always makes at least one. Returns the number made.
pub(super) fn fill_units(
    budget: usize,
    fixed: usize,
    mut unit: impl FnMut(usize) -> usize,
) -> usize {
    let mut lines = 0;
    let mut k = 0;
    loop {
        let added = unit(k);
        lines += added;
        k += 1;
        if lines + fixed + added / 2 >= budget {
            return k;
        }
    }
}

/// A group of `MAX_THREADS` at most worker threads forked in a loop and joined, each running
/// `all(i)` for each iteration: `<p>_<what>_worker` and `<p>_run_<what>`.
fn worker_group(p: &str, what: &str, all: &str) -> String {
    format!(
        "static void *{p}_{what}_worker(void *arg)
{{
    long total = 0;
    int i;

    (void)arg;
    for (i = 0; i < server_iters; i++)
        total += {all}(i);
    stats_add(&server_stats, total & 0xff);
    return NULL;
}}

{}",
        group_runner(p, what)
    )
}

/// `<p>_run_<what>(n)`, which forks `MAX_THREADS` at most threads running `<p>_<what>_worker`
/// in a loop and joins them.
fn group_runner(p: &str, what: &str) -> String {
    format!(
        "static void {p}_run_{what}(int n)
{{
    pthread_t th[{MAX_THREADS}];
    int i;

    if (n > {MAX_THREADS})
        n = {MAX_THREADS};
    for (i = 0; i < n; i++)
        if (pthread_create(&th[i], NULL, {p}_{what}_worker, NULL) != 0)
            abort();
    for (i = 0; i < n; i++)
        pthread_join(th[i], NULL);
}}

"
    )
}

/// The end of a module's part of the interpreter, after its `n` functions: their table
/// (`table`, its entries) and `<p>_vm_init`, which registers it, then the worker threads, each
/// with a `struct vm` of its own, that call the functions in turn through `vm_calli`, and
/// `<p>_run_vm`, which starts them.
fn interp_tail(p: &str, n: usize, table: &str) -> String {
    format!(
        "static const struct reg {p}_lib[] = {{
{table}    {{ NULL, NULL }},
}};

void {p}_vm_init(void)
{{
    vm_register({p}_lib);
}}

static void *{p}_vm_worker(void *arg)
{{
    struct vm vm;
    long total = 0;
    int base = vm_find(\"{p}.op0\");
    int i, k;

    (void)arg;
    vm_open(&vm);
    for (i = 0; i < server_iters; i++)
        for (k = 0; k < {VM_WORKER_CALLS}; k++)
            total += vm_calli(&vm, base + (i * {VM_WORKER_CALLS} + k) % {n}, i + k);
    total += {p}_vm_read();
    stats_add(&server_stats, (total + vm.calls) & 0xff);
    return NULL;
}}

{}",
        group_runner(p, "vm")
    )
}

impl Module<'_> {
    /// Adds the code of one part of the shape, about `budget` preprocessed lines.
    pub(super) fn add_part(&mut self, part: Shape, budget: usize) {
        match part {
            Shape::Pool => self.add_pool(budget),
            Shape::Callbacks => self.add_callbacks(budget),
            Shape::Forks => self.add_forks(budget),
            Shape::BigStruct => self.add_big(budget),
            Shape::Macros => self.add_macros(budget),
            Shape::Lazy => self.add_lazy(budget),
            Shape::Interp => self.add_interp(budget),
            Shape::Dispatch | Shape::Drivers | Shape::Spawn | Shape::Commands => {
                self.add_hub(part, budget)
            }
            Shape::Server | Shape::All => {}
        }
    }

    /// A statement that updates a field of `o`, a `struct` of type `t`, by `v`.
    pub(super) fn update(&mut self, t: usize, o: &str, v: &str) -> String {
        let (cty, f) = self.field(t);
        match cty {
            "unsigned" => format!("    {o}->{f} |= (unsigned)(({v}) & 0xff);\n"),
            "int" => format!("    {o}->{f} = (int)(({v}) % 97);\n"),
            _ => format!("    {o}->{f} += {v};\n"),
        }
    }

    /// Statements that update a field of `o`, a `struct` of type `t`, by `r & 15` under its
    /// lock ([`Module::update`]).
    pub(super) fn locked_update(&mut self, t: usize) -> String {
        let ty = &self.types[t].name;
        let (lock, unlock) = (
            format!("    {ty}_lock(o);\n"),
            format!("    {ty}_unlock(o);\n"),
        );
        lock + &self.update(t, "o", "r & 15") + &unlock
    }

    /// The top of a locked chain of a service on type `t`, if there is one.
    fn locked_top_of(&mut self, t: usize) -> Option<String> {
        let tops: Vec<String> = self
            .services
            .iter()
            .filter(|s| s.ty == t)
            .map(|s| s.locked_top.clone())
            .collect();
        if tops.is_empty() {
            None
        } else {
            Some(tops[self.rng.below(tops.len())].clone())
        }
    }

    /// The body of a job or callback on `o` (of type `t`, from the `void *` named `arg`): an
    /// update and a read under the object's lock, a counter, sometimes a locked chain or a log
    /// line. `who` names the function in the log.
    fn object_work(&mut self, t: usize, arg: &str, k: usize, who: &str) -> String {
        let p = self.p.clone();
        let ty = self.types[t].name.clone();
        let (_, g) = self.field(t);
        let c = self.rng.below(self.counters);
        let mut s = format!(
            "    struct {ty} *o = (struct {ty} *){arg};\n    long v;\n\n    {ty}_lock(o);\n"
        );
        s.push_str(&self.update(t, "o", &(k + 1).to_string()));
        s.push_str(&format!(
            "    v = (long)o->{g};\n    {ty}_unlock(o);\n    {p}_count{c}(v & 7);\n"
        ));
        if self.rng.one_in(3) {
            if let Some(top) = self.locked_top_of(t) {
                s.push_str(&format!("    v += {top}(o, v & 255);\n"));
            }
        }
        if self.rng.one_in(3) {
            s.push_str(&format!("    log_line(\"{who}\", v);\n"));
        }
        s
    }

    /// Jobs `<p>_job<k>` for the pool and `<p>_submit_jobs`, which submits each once per
    /// iteration. The first job increments the planted counter.
    fn add_pool(&mut self, budget: usize) {
        let p = self.p.clone();
        let mut jobs = String::new();
        let mut submits = String::new();
        fill_units(budget, 10, |k| {
            let t = self.rng.below(self.types.len());
            let obj = self.object(t);
            let mut c = format!("static void {p}_job{k}(void *arg)\n{{\n");
            c.push_str(&self.object_work(t, "arg", k, &format!("{p}_job{k}")));
            if k == 0 {
                c.push_str(&format!("    {p}_unsafe_hits++;\n"));
            }
            c.push_str("}\n\n");
            let sub = format!("        pool_submit({p}_job{k}, {obj});\n");
            let lines = preprocessed_lines(&c) + preprocessed_lines(&sub);
            jobs.push_str(&c);
            submits.push_str(&sub);
            lines
        });
        jobs.push_str(&format!(
            "void {p}_submit_jobs(void)
{{
    int i;

    for (i = 0; i < server_iters; i++) {{
{submits}    }}
}}
\n"
        ));
        self.extra.push_str(&jobs);
        self.run_hooks
            .push_str(&format!("    {p}_submit_jobs();\n"));
    }

    /// Callbacks registered with the library by `<p>_register_callbacks`: two of three units are
    /// a callback `<p>_cb<k>` registered with `lib_register`, the third a table `<p>_ops<k>` of
    /// three operations registered with `lib_register_ops`.
    fn add_callbacks(&mut self, budget: usize) {
        let p = self.p.clone();
        let mut defs = String::new();
        let mut regs = String::new();
        fill_units(budget, 6, |k| {
            let t = self.rng.below(self.types.len());
            let ty = self.types[t].name.clone();
            let mut c = String::new();
            let reg = if k % 3 == 2 {
                let (_, f) = self.field(t);
                let cnt = self.rng.below(self.counters);
                c.push_str(&format!("static void {p}_ops{k}_start(void *ctx)\n{{\n"));
                c.push_str(&self.object_work(t, "ctx", k, &format!("{p}_ops{k}")));
                c.push_str(&format!(
                    "}}

static void {p}_ops{k}_tick(void *ctx)
{{
    struct {ty} *o = (struct {ty} *)ctx;

    {p}_count{cnt}({ty}_get_{f}(o) & 7);
}}

static void {p}_ops{k}_stop(void *ctx)
{{
    struct {ty} *o = (struct {ty} *)ctx;
    char snap[64];

    {ty}_snapshot(o, snap, sizeof snap);
    log_line(\"{p}_ops{k}\", (long)strlen(snap));
}}

static const struct lib_ops {p}_ops{k} = {{
    .name = \"{p}.ops{k}\",
    .start = {p}_ops{k}_start,
    .tick = {p}_ops{k}_tick,
    .stop = {p}_ops{k}_stop,
    .ctx = &{ty}_main,
}};
\n"
                ));
                format!("    lib_register_ops(&{p}_ops{k});\n")
            } else {
                let obj = self.object(t);
                c.push_str(&format!("static void {p}_cb{k}(void *ctx)\n{{\n"));
                c.push_str(&self.object_work(t, "ctx", k, &format!("{p}_cb{k}")));
                c.push_str("}\n\n");
                format!("    lib_register(\"{p}.cb{k}\", {p}_cb{k}, {obj});\n")
            };
            let lines = preprocessed_lines(&c) + preprocessed_lines(&reg);
            defs.push_str(&c);
            regs.push_str(&reg);
            lines
        });
        defs.push_str(&format!(
            "void {p}_register_callbacks(void)\n{{\n{regs}}}\n\n"
        ));
        self.extra.push_str(&defs);
        self.run_hooks
            .push_str(&format!("    {p}_register_callbacks();\n"));
    }

    /// Batches `<p>_forks<b>` of 4 to 8 distinct fork sites, each starting `<p>_fork<k>`, which
    /// serves one request: joined at once, joined at the end of the batch, or detached and
    /// awaited through `<p>_fork_wait`. `<p>_fork_all` runs the batches in turn.
    fn add_forks(&mut self, budget: usize) {
        let p = self.p.clone();
        let mut defs = format!(
            "pthread_mutex_t {p}_fork_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t {p}_fork_cv = PTHREAD_COND_INITIALIZER;
long {p}_fork_done;

void {p}_fork_finish(void)
{{
    pthread_mutex_lock(&{p}_fork_mu);
    {p}_fork_done++;
    pthread_cond_broadcast(&{p}_fork_cv);
    pthread_mutex_unlock(&{p}_fork_mu);
}}

void {p}_fork_wait(long n)
{{
    pthread_mutex_lock(&{p}_fork_mu);
    while ({p}_fork_done < n)
        pthread_cond_wait(&{p}_fork_cv, &{p}_fork_mu);
    {p}_fork_done -= n;
    pthread_mutex_unlock(&{p}_fork_mu);
}}

"
        );
        let fixed = preprocessed_lines(&defs) + 4;
        let mut site = 0;
        let batches = fill_units(budget, fixed, |b| {
            let n = self.rng.range(4, 8);
            let mut threads = String::new();
            let mut decls = String::new();
            let mut starts = String::new();
            let mut late = String::new();
            let mut detached = 0;
            for j in 0..n {
                let k = site;
                site += 1;
                let kind = self.rng.below(3);
                let h = self.rng.below(self.handlers.len());
                let serve = match self.rng.below(4) {
                    0 => format!("{p}_dispatch(&req)"),
                    1 => format!("{p}_route(&req)"),
                    _ => format!("{p}_handle{}(&req)", self.rng.below(self.handlers.len())),
                };
                threads.push_str(&format!(
                    "static void *{p}_fork{k}(void *arg)
{{
    struct request req;

    request_init(&req, {k}, {}, (const char *)arg);
    (void){serve};\n",
                    k % 7
                ));
                if self.rng.one_in(3) {
                    let c = self.rng.below(self.counters);
                    threads.push_str(&format!("    {p}_count{c}((long)req.len);\n"));
                }
                threads.push_str("    request_free(&req);\n");
                if kind == 2 {
                    threads.push_str(&format!("    {p}_fork_finish();\n"));
                }
                threads.push_str("    return NULL;\n}\n\n");
                decls.push_str(&format!("    pthread_t t{j};\n"));
                starts.push_str(&format!(
                    "    if (pthread_create(&t{j}, NULL, {p}_fork{k}, \"/{p}/h{h}\") != 0)\n        abort();\n"
                ));
                match kind {
                    0 => {
                        starts.push_str(&format!("    pthread_join(t{j}, NULL);\n"));
                    }
                    1 => {
                        late.push_str(&format!("    pthread_join(t{j}, NULL);\n"));
                    }
                    _ => {
                        starts.push_str(&format!("    pthread_detach(t{j});\n"));
                        detached += 1;
                    }
                }
            }
            threads.push_str(&format!(
                "static void {p}_forks{b}(void)\n{{\n{decls}\n{starts}{late}\n"
            ));
            if detached > 0 {
                threads.push_str(&format!("    {p}_fork_wait({detached});\n"));
            }
            threads.push_str("}\n\n");
            defs.push_str(&threads);
            preprocessed_lines(&threads) + 1
        });
        defs.push_str(&format!("void {p}_fork_all(void)\n{{\n"));
        for b in 0..batches {
            defs.push_str(&format!("    {p}_forks{b}();\n"));
        }
        defs.push_str("}\n\n");
        self.extra.push_str(&defs);
        self.run_hooks.push_str(&format!("    {p}_fork_all();\n"));
    }

    /// One access to the big struct `b` by `v`, as a statement.
    fn big_access(&mut self) -> String {
        match self.rng.below(8) {
            0..=2 => {
                let (cty, f) = BIG_FIELDS[self.rng.below(BIG_FIELDS.len())];
                match cty {
                    "unsigned" => format!("    b->{f} |= (unsigned)(v & 0xff);\n"),
                    "int" => format!("    b->{f} = (int)(v % 1000);\n"),
                    _ => format!("    b->{f} += v;\n"),
                }
            }
            3 => {
                let c = BIG_COUNTERS[self.rng.below(BIG_COUNTERS.len())];
                match self.rng.below(3) {
                    0 => format!("    b->{c}.count++;\n"),
                    1 => format!("    b->{c}.bytes += v;\n"),
                    _ => format!("    b->{c}.state = (int)(v & 3);\n"),
                }
            }
            4 => {
                if self.rng.one_in(2) {
                    "    b->limits.used.count++;\n".to_string()
                } else {
                    "    b->limits.hi = v > b->limits.hi ? v : b->limits.hi;\n".to_string()
                }
            }
            5 => format!(
                "    b->queues[{}].bytes += v;\n",
                self.rng.below(BIG_QUEUES)
            ),
            6 => format!("    b->hist[(unsigned long)v % {BIG_HIST}u]++;\n"),
            _ => format!("    b->ring[(unsigned long)v % {BIG_RING}u] = (int)(v & 0xffff);\n"),
        }
    }

    /// Call chains `<p>_big<k>_<i>` that pass the big struct down from `<p>_big<k>`, which
    /// reads the module's pointer to it; the lock is taken at the bottom of the chain or around
    /// it by the top, and some bottoms also update a nested counter passed by pointer. The
    /// worker group `<p>_run_big` runs them all.
    fn add_big(&mut self, budget: usize) {
        let p = self.p.clone();
        let mut defs = format!(
            "static struct big_state *{p}_big;

void {p}_attach(struct big_state *b)
{{
    {p}_big = b;
}}

"
        );
        let mut calls = String::new();
        let fixed =
            preprocessed_lines(&defs) + preprocessed_lines(&worker_group(&p, "big", "x")) + 9;
        fill_units(budget, fixed, |k| {
            let depth = self.rng.range(2, 5);
            let lock_at_top = self.rng.one_in(2);
            let sub = if self.rng.one_in(3) {
                Some(match self.rng.below(3) {
                    0 => format!("&b->{}", BIG_COUNTERS[self.rng.below(BIG_COUNTERS.len())]),
                    1 => "&b->limits.used".to_string(),
                    _ => format!("&b->queues[{}]", self.rng.below(BIG_QUEUES)),
                })
            } else {
                None
            };
            let (lock, unlock) = if self.rng.one_in(2) {
                ("lock_acquire", "lock_release")
            } else {
                ("pthread_mutex_lock", "pthread_mutex_unlock")
            };
            let mut c = String::new();
            let counter_param = if sub.is_some() {
                "struct big_counter *c, "
            } else {
                ""
            };
            c.push_str(&format!(
                "static long {p}_big{k}_0(struct big_state *b, {counter_param}long v)\n{{\n    long r;\n\n"
            ));
            if !lock_at_top {
                c.push_str(&format!("    {lock}(&b->lock);\n"));
            }
            for _ in 0..self.rng.range(2, 4) {
                let a = self.big_access();
                c.push_str(&a);
            }
            if sub.is_some() {
                c.push_str("    c->count++;\n    c->bytes += v;\n");
            }
            let (_, f) = BIG_FIELDS[self.rng.below(BIG_FIELDS.len())];
            c.push_str(&format!("    r = (long)b->{f};\n"));
            if !lock_at_top {
                c.push_str(&format!("    {unlock}(&b->lock);\n"));
            }
            c.push_str("    return r;\n}\n\n");
            for i in 1..depth {
                let pass = match (&sub, i) {
                    (Some(s), 1) => format!("{s}, "),
                    _ => String::new(),
                };
                c.push_str(&format!(
                    "static long {p}_big{k}_{i}(struct big_state *b, long v)
{{
    return {p}_big{k}_{}(b, {pass}v + {i}) + 1;
}}
\n",
                    i - 1
                ));
            }
            let bottom = format!("{p}_big{k}_{}", depth - 1);
            if lock_at_top {
                c.push_str(&format!(
                    "static long {p}_big{k}(long v)
{{
    struct big_state *b = {p}_big;
    long r;

    {lock}(&b->lock);
    r = {bottom}(b, v);
    {unlock}(&b->lock);
    return r;
}}
\n"
                ));
            } else {
                c.push_str(&format!(
                    "static long {p}_big{k}(long v)\n{{\n    return {bottom}({p}_big, v);\n}}\n\n"
                ));
            }
            let call = format!("    r += {p}_big{k}(v);\n");
            let lines = preprocessed_lines(&c) + 1;
            defs.push_str(&c);
            calls.push_str(&call);
            lines
        });
        self.add_worker_group(defs, &calls, "big");
    }

    /// One line of macro uses on `o` (of type `t`) in `<p>_mac<k>`: one to three lock/unlock
    /// pairs once expanded, nested ones taking the object's lock first.
    fn macro_line(&mut self, t: usize) -> String {
        let p = self.p.clone();
        let (_, f) = self.field(t);
        let c = self.rng.below(self.counters);
        match self.rng.below(10) {
            0 => format!("    STAT_INC(o, {f});\n"),
            1 => format!("    STAT_ADD(o, {f}, v & 7);\n"),
            2 => format!("    STAT_GET(o, {f}, r);\n"),
            3 => format!("    WITH_LOCK(&{p}_mu{c}, {p}_served{c} += v & 3);\n"),
            4 => format!("    WITH_LOCK2(&o->lock, &{p}_mu{c}, o->{f} += {p}_served{c} & 3);\n"),
            5 => format!(
                "    WITH_LOCK(&o->lock, r += (long)o->{f}; STAT_INC(&server_stats, requests));\n"
            ),
            6 => format!("    WITH_MUTEX(&{p}_batch_mu, {p}_batch_total += r & 1);\n"),
            7 => "    STAT_ADD(&server_stats, bytes, r & 15);\n".to_string(),
            8 => format!(
                "    WITH_LOCK2(&o->lock, &server_stats.lock, o->{f} += 1; server_stats.requests++);\n"
            ),
            _ => format!(
                "    if (v & 1)\n        STAT_INC(o, {f});\n    else\n        WITH_LOCK(&o->lock, r += (long)o->{f}; WITH_LOCK(&{p}_mu{c}, {p}_served{c} += r & 1));\n"
            ),
        }
    }

    /// Functions `<p>_mac<k>` of 10 to 24 lines of lock macros on an object of the module, all
    /// run by the worker group `<p>_run_mac`.
    fn add_macros(&mut self, budget: usize) {
        self.add_object_units(budget, "mac", |m, t| {
            let mut body = String::from("    long r = 0;\n\n");
            for _ in 0..m.rng.range(10, 24) {
                let line = m.macro_line(t);
                body.push_str(&line);
            }
            body
        });
    }

    /// Functions `<p>_rpc<k>` of two to six requests on the connection into a buffer of their
    /// own from `malloc`, whose answers then update an object of the module under its lock, all
    /// run by the worker group `<p>_run_rpc`. The buffer is only touched by `conn_call`, the
    /// reader and `conn_free`, under the connection's lock.
    fn add_lazy(&mut self, budget: usize) {
        self.add_object_units(budget, "rpc", |m, t| {
            let mut body = String::from(
                "    long *buf = malloc(sizeof *buf);
    long r = 0;

    if (buf == NULL)
        abort();
",
            );
            for _ in 0..m.rng.range(2, 6) {
                let op = m.rng.below(64);
                body.push_str(&format!("    r += conn_call(v + {op}, buf);\n"));
            }
            body.push_str("    conn_free(buf);\n");
            body.push_str(&m.locked_update(t));
            body
        });
    }

    /// The interpreter's functions of the module, `<p>_op<k>(struct vm *L, int arg)`: each
    /// allocates a `struct <p>_udata` with `vm_alloc`, calls back into the dispatcher once or
    /// twice ([`Module::vm_callback`]) and adds what it got to a counter of the module under
    /// `<p>_vm_mu`, which no call into the dispatcher is made holding; one in three also counts
    /// it in `vm_global`'s histogram. `<p>_vm_init` registers them (the table `<p>_lib`), and the
    /// worker group `<p>_run_vm` calls them in a loop through `vm_calli`, each thread with a
    /// `struct vm` of its own.
    fn add_interp(&mut self, budget: usize) {
        let p = self.p.clone();
        let head = format!(
            "struct {p}_udata {{
    int tag;
    long num;
    char name[24];
}};

static pthread_mutex_t {p}_vm_mu = PTHREAD_MUTEX_INITIALIZER;
static long {p}_vm_sum;
static long {p}_vm_count;

static long {p}_vm_read(void)
{{
    long v;

    pthread_mutex_lock(&{p}_vm_mu);
    v = {p}_vm_sum + {p}_vm_count;
    pthread_mutex_unlock(&{p}_vm_mu);
    return v;
}}

"
        );
        let fixed = preprocessed_lines(&head) + preprocessed_lines(&interp_tail(&p, 1, "")) + 1;
        let mut ops = String::new();
        let mut table = String::new();
        let n = fill_units(budget, fixed, |k| {
            let op = self.interp_op(k);
            let entry = format!("    {{ \"{p}.op{k}\", {p}_op{k} }},\n");
            let lines = preprocessed_lines(&op) + preprocessed_lines(&entry);
            ops.push_str(&op);
            table.push_str(&entry);
            lines
        });
        self.extra.push_str(&head);
        self.extra.push_str(&ops);
        self.extra.push_str(&interp_tail(&p, n, &table));
        self.run_hooks
            .push_str(&format!("    {p}_run_vm(nthreads);\n"));
    }

    /// `<p>_op<k>`, a function of the interpreter: see [`Module::add_interp`].
    fn interp_op(&mut self, k: usize) -> String {
        let p = self.p.clone();
        let mut c = format!(
            "static int {p}_op{k}(struct vm *L, int arg)
{{
    struct {p}_udata *u = vm_alloc(L, sizeof *u);
    int r;

    u->tag = arg;
    u->num = (long)arg * {} + {k};\n",
            self.rng.range(2, 97)
        );
        if self.rng.one_in(3) {
            c.push_str(&format!(
                "    snprintf(u->name, sizeof u->name, \"{p}.%d\", arg & 0xff);
    u->num += (long)strlen(u->name);\n"
            ));
        }
        let call = self.vm_callback(k, "(int)(u->num & 0x3ff)");
        c.push_str(&format!(
            "    r = {call};
    pthread_mutex_lock(&{p}_vm_mu);
    {p}_vm_sum += r;
    pthread_mutex_unlock(&{p}_vm_mu);\n"
        ));
        if self.rng.one_in(2) {
            let call = self.vm_callback(k, "u->tag & 0xff");
            c.push_str(&format!(
                "    r += {call};
    pthread_mutex_lock(&{p}_vm_mu);
    {p}_vm_count++;
    pthread_mutex_unlock(&{p}_vm_mu);\n"
            ));
        }
        if self.rng.one_in(3) {
            c.push_str(
                "    pthread_mutex_lock(&vm_global.lock);
    vm_global.hist[(unsigned)r % VM_HIST]++;
    pthread_mutex_unlock(&vm_global.lock);\n",
            );
        }
        c.push_str("    vm_free(L, u, sizeof *u);\n    return r & 0xffff;\n}\n\n");
        c
    }

    /// A call of `<p>_op<k>` back into the interpreter with `arg`: by the name of a function of
    /// the module up to `k` (itself included), by the name of the first function of a lower
    /// module of its layer, or by an index, which may be any function of any module.
    fn vm_callback(&mut self, k: usize, arg: &str) -> String {
        let p = &self.p;
        match self.rng.below(3) {
            0 => format!("vm_call(L, \"{p}.op{}\", {arg})", self.rng.below(k + 1)),
            1 if !self.lower.is_empty() => {
                let m = &self.lower[self.rng.below(self.lower.len())];
                format!("vm_call(L, \"{m}.op0\", {arg})")
            }
            _ => format!("vm_calli(L, arg + {}, {arg})", self.rng.below(1000)),
        }
    }

    /// Functions `<p>_<what><k>(struct <type> *o, long v)` on an object of a type of the module,
    /// each `body(self, type)` and `return r;`, all called by `<p>_<what>_all` and run by the
    /// worker group `<p>_run_<what>` ([`Module::add_worker_group`]).
    pub(super) fn add_object_units(
        &mut self,
        budget: usize,
        what: &str,
        mut body: impl FnMut(&mut Self, usize) -> String,
    ) {
        let p = self.p.clone();
        let mut defs = String::new();
        let mut calls = String::new();
        let fixed = preprocessed_lines(&worker_group(&p, what, "x")) + 9;
        fill_units(budget, fixed, |k| {
            let t = self.rng.below(self.types.len());
            let ty = self.types[t].name.clone();
            let obj = self.object(t);
            let c = format!(
                "static long {p}_{what}{k}(struct {ty} *o, long v)\n{{\n{}    return r;\n}}\n\n",
                body(self, t)
            );
            let call = format!("    r += {p}_{what}{k}({obj}, v);\n");
            let lines = preprocessed_lines(&c) + 1;
            defs.push_str(&c);
            calls.push_str(&call);
            lines
        });
        self.add_worker_group(defs, &calls, what);
    }

    /// Ends a unit group `what`: `<p>_<what>_all`, which calls each unit (`calls`) and sums
    /// their results, the worker threads that run it ([`worker_group`]), and the hook that
    /// starts them.
    fn add_worker_group(&mut self, mut defs: String, calls: &str, what: &str) {
        let p = self.p.clone();
        defs.push_str(&format!(
            "static long {p}_{what}_all(long v)\n{{\n    long r = 0;\n\n{calls}    return r;\n}}\n\n"
        ));
        defs.push_str(&worker_group(&p, what, &format!("{p}_{what}_all")));
        self.extra.push_str(&defs);
        self.run_hooks
            .push_str(&format!("    {p}_run_{what}(nthreads);\n"));
    }
}
