//! The shapes whose one place grows with the program: [`Shape::Dispatch`] (one function with a
//! case for the operations of every module), [`Shape::Drivers`] (one pager calling every
//! module's I/O methods through one pointer), [`Shape::Spawn`] (one function starting a
//! thread for each task of every module) and [`Shape::Commands`] (a command table whose
//! per-worker statistics have a counter for each command of every module).
//!
//! The other shapes give every module the same code at every size, so no function, call site
//! or fork site grows with the program. Real programs do have such places, and they are where a
//! per-function analysis turns quadratic: SQLite's bytecode engine is one function of thousands
//! of lines, its pager reads through the methods of whichever file system a module opened, and
//! test drivers and servers start hundreds of threads from one function. Each shape here keeps
//! the hub in `server.c` and gives it a fixed part per module, so the hub grows linearly with
//! the program while each module stays as large as before. The hub's lines for a module are
//! taken from that module's budget, so the program keeps its size.
//!
//! Every lock taken here is a leaf except the files' mutexes, which the pager holds while a
//! module's read method takes that module's I/O mutex (a leaf): the programs cannot deadlock.
//! A command's connection is on the stack of the worker that serves it, and the workers'
//! counters are guarded by their worker's mutex.
//! The registers of each of the engine's banks are guarded by the bank's mutex, each file's
//! counters and page by the file's mutex, the storage statistics by their mutex, and every
//! module counter by its module's mutex: the only races remain the planted ones.

use super::shapes::fill_units;
use super::{preprocessed_lines, Module, Rng, Shape};

/// Operations each module has in the engine: the cases of `engine_exec` per module.
const ENGINE_OPS: usize = 24;
/// The engine's banks of registers, each a global `struct engine_bank` with a mutex of its own.
const ENGINE_BANKS: usize = 16;
/// Registers per bank.
const ENGINE_REGS: usize = 16;
/// Tasks each module gives `spawn_tasks`: one `pthread_create` call each.
const SPAWN_TASKS: usize = 16;
/// Threads `spawn_tasks` starts before it joins them.
const SPAWN_BATCH: usize = 32;
/// Bytes of a file's page.
const IO_PAGE: usize = 64;
/// Commands each module has in the command table: the cases of `conn_dispatch`, and the
/// counters of `struct worker_stats`, per module.
const COMMANDS: usize = 8;
/// The workers whose statistics the commands count in.
const CMD_WORKERS: usize = 4;
/// The states a connection goes through.
const CONN_STATES: usize = 4;

/// What one hub shape adds to `common.h`.
pub(super) fn hub_header(part: Shape) -> String {
    match part {
        Shape::Dispatch => "
/* The bytecode engine of server.c, as SQLite's: one function with a case for each operation of
 * every module, whose registers are guarded by mutexes taken through methods chosen at
 * start-up. */
long engine_exec(const int *prog, int len, long acc);
void engine_configure(int debug);
"
        .to_string(),
        Shape::Drivers => format!(
            "
/* The storage layer of server.c, as SQLite's: each module opens files with I/O methods of its
 * own, and the pager calls them under the file's mutex, initialised and taken through methods
 * chosen at start-up. */
#define IO_PAGE {IO_PAGE}

struct io_file;

struct io_methods {{
    int (*read)(struct io_file *f, char *buf, int n, long off);
    int (*write)(struct io_file *f, const char *buf, int n, long off);
}};

struct io_file {{
    const struct io_methods *methods;
    pthread_mutex_t mu;
    long reads;
    long writes;
    char page[IO_PAGE];
}};

void storage_configure(int debug);
void io_open(struct io_file *f, const struct io_methods *methods);
int pager_read(struct io_file *f, char *buf, int n, long off);
int pager_write(struct io_file *f, const char *buf, int n, long off);
"
        ),
        Shape::Spawn => "
/* The tasks of server.c: one thread for each task of every module, each started by a
 * pthread_create of its own. */
void spawn_tasks(void);
"
        .to_string(),
        Shape::Commands => "
/* The command table of server.c, as a cache server's: its workers run every module's
 * commands, each counting itself in the statistics of the worker its connection belongs to. */
void commands_start(void);
void commands_stop(void);
"
        .to_string(),
        _ => String::new(),
    }
}

/// What one hub shape adds to `server.c` after its shared helpers, for the modules `modules`:
/// the engine, the storage layer or the tasks' starter, and the declarations of the modules'
/// functions they call (kept out of `common.h`, which every file includes).
pub(super) fn hub_core(part: Shape, modules: &[String]) -> String {
    match part {
        Shape::Dispatch => engine_core(modules),
        Shape::Drivers => storage_core(modules),
        Shape::Spawn => spawn_core(modules),
        Shape::Commands => commands_core(modules),
        _ => String::new(),
    }
}

/// The statements of `main` after the modules' setups, before any thread starts.
pub(super) fn hub_setup(part: Shape, modules: &[String]) -> String {
    match part {
        Shape::Dispatch => "    engine_configure(getenv(\"SERVER_DEBUG\") != NULL);\n".to_string(),
        Shape::Drivers => {
            let mut s = "    storage_configure(getenv(\"SERVER_DEBUG\") != NULL);\n".to_string();
            for m in modules {
                s.push_str(&format!("    {m}_io_open();\n"));
            }
            s
        }
        _ => String::new(),
    }
}

/// The engine: its banks of registers, the two implementations of its mutex methods, and
/// `engine_exec`, a loop over a program whose switch has [`ENGINE_OPS`] cases per module
/// ([`engine_cases`]).
fn engine_core(modules: &[String]) -> String {
    let mut s = format!(
        "/* The bytecode engine: the registers of a bank are guarded by its mutex, taken through the
 * methods engine_configure chooses before any thread starts. */
#define ENGINE_REGS {ENGINE_REGS}

struct engine_bank {{
    pthread_mutex_t mu;
    long reg[ENGINE_REGS];
}};

struct engine_mutex_methods {{
    void (*enter)(pthread_mutex_t *m);
    void (*leave)(pthread_mutex_t *m);
}};

static struct engine_mutex_methods engine_methods;
"
    );
    for b in 0..ENGINE_BANKS {
        s.push_str(&format!(
            "static struct engine_bank engine_bank{b} = {{ .mu = PTHREAD_MUTEX_INITIALIZER }};\n"
        ));
    }
    s.push_str(
        "
static void engine_plain_enter(pthread_mutex_t *m)
{
    pthread_mutex_lock(m);
}

static void engine_plain_leave(pthread_mutex_t *m)
{
    pthread_mutex_unlock(m);
}

static void engine_debug_enter(pthread_mutex_t *m)
{
    if (pthread_mutex_lock(m) != 0)
        abort();
}

static void engine_debug_leave(pthread_mutex_t *m)
{
    if (pthread_mutex_unlock(m) != 0)
        abort();
}

void engine_configure(int debug)
{
    if (debug) {
        engine_methods.enter = engine_debug_enter;
        engine_methods.leave = engine_debug_leave;
    } else {
        engine_methods.enter = engine_plain_enter;
        engine_methods.leave = engine_plain_leave;
    }
}

static void engine_enter(struct engine_bank *b)
{
    engine_methods.enter(&b->mu);
}

static void engine_leave(struct engine_bank *b)
{
    engine_methods.leave(&b->mu);
}

",
    );
    for m in modules {
        s.push_str(&format!("long {m}_engine_hook(long acc, int op);\n"));
    }
    s.push_str(
        "
long engine_exec(const int *prog, int len, long acc)
{
    long tmp[4] = { 0, 0, 0, 0 };
    int pc;

    for (pc = 0; pc < len; pc++) {
        switch (prog[pc]) {
",
    );
    for (idx, m) in modules.iter().enumerate() {
        s.push_str(&engine_cases(idx, m));
    }
    s.push_str(
        "        default:
            break;
        }
    }
    return acc + tmp[0] + tmp[1] + tmp[2] + tmp[3];
}

",
    );
    s
}

/// The cases of `engine_exec` for module `p`, the `idx`-th: opcodes `idx * ENGINE_OPS` and on.
/// Each updates registers of a bank under its mutex, calls the module's hook with that mutex
/// released for the call, or calls the hook on the engine's locals. The text depends on `idx`
/// alone, so that the module can count its lines when it sets its budget.
fn engine_cases(idx: usize, p: &str) -> String {
    let mut rng = Rng(0x00e1_u64 ^ (idx as u64).wrapping_mul(0x9e37_79b9));
    let mut s = String::new();
    for k in 0..ENGINE_OPS {
        let op = idx * ENGINE_OPS + k;
        // Every bank has a case among any 16 consecutive operations.
        let b = format!("engine_bank{}", op * 7 % ENGINE_BANKS);
        let r = rng.below(ENGINE_REGS);
        let other = rng.below(ENGINE_REGS);
        s.push_str(&format!("        case {op}: /* {p}.{k} */\n"));
        match rng.below(3) {
            0 => s.push_str(&format!(
                "            engine_enter(&{b});
            {b}.reg[{r}] += acc & 0xff;
            acc = (acc * 31 + {b}.reg[{other}]) % 100003;
            engine_leave(&{b});
"
            )),
            1 => s.push_str(&format!(
                "            engine_enter(&{b});
            {b}.reg[{r}]++;
            if ({b}.reg[{r}] % {} == 0) {{
                engine_leave(&{b});
                acc = {p}_engine_hook(acc, {k});
                engine_enter(&{b});
            }}
            engine_leave(&{b});
",
                rng.range(2, 9)
            )),
            _ => s.push_str(&format!(
                "            tmp[{t}] += acc;
            acc = {p}_engine_hook(acc ^ tmp[{t}], {k});
",
                t = k % 4
            )),
        }
        s.push_str("            break;\n");
    }
    s
}

/// The storage layer: the two implementations of the mutex methods, `io_open` and the pager,
/// which calls a file's methods holding the file's mutex and then counts the bytes in
/// `storage_stats` under `storage_stats_mu`.
fn storage_core(modules: &[String]) -> String {
    let mut s = String::from(
        "/* The storage layer: its mutex methods are chosen by storage_configure before any thread
 * starts. */
struct storage_mutex_methods {
    void (*init)(pthread_mutex_t *m);
    void (*enter)(pthread_mutex_t *m);
    void (*leave)(pthread_mutex_t *m);
};

static struct storage_mutex_methods storage_methods;
static pthread_mutex_t storage_stats_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    long reads;
    long writes;
    long bytes;
} storage_stats;

static void storage_init_plain(pthread_mutex_t *m)
{
    pthread_mutex_init(m, NULL);
}

static void storage_init_debug(pthread_mutex_t *m)
{
    pthread_mutexattr_t attr;

    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(m, &attr);
    pthread_mutexattr_destroy(&attr);
}

static void storage_enter_plain(pthread_mutex_t *m)
{
    pthread_mutex_lock(m);
}

static void storage_enter_debug(pthread_mutex_t *m)
{
    if (pthread_mutex_lock(m) != 0)
        abort();
}

static void storage_leave(pthread_mutex_t *m)
{
    pthread_mutex_unlock(m);
}

void storage_configure(int debug)
{
    storage_methods.init = debug ? storage_init_debug : storage_init_plain;
    storage_methods.enter = debug ? storage_enter_debug : storage_enter_plain;
    storage_methods.leave = storage_leave;
}

void io_open(struct io_file *f, const struct io_methods *methods)
{
    int i;

    f->methods = methods;
    storage_methods.init(&f->mu);
    f->reads = 0;
    f->writes = 0;
    for (i = 0; i < IO_PAGE; i++)
        f->page[i] = (char)i;
}

static void storage_count(long n, int write)
{
    storage_methods.enter(&storage_stats_mu);
    if (write)
        storage_stats.writes++;
    else
        storage_stats.reads++;
    storage_stats.bytes += n;
    storage_methods.leave(&storage_stats_mu);
}

int pager_read(struct io_file *f, char *buf, int n, long off)
{
    int rc;

    storage_methods.enter(&f->mu);
    rc = f->methods->read(f, buf, n, off);
    f->reads++;
    storage_methods.leave(&f->mu);
    storage_count(rc, 0);
    return rc;
}

int pager_write(struct io_file *f, const char *buf, int n, long off)
{
    int rc;

    storage_methods.enter(&f->mu);
    rc = f->methods->write(f, buf, n, off);
    f->writes++;
    storage_methods.leave(&f->mu);
    storage_count(rc, 1);
    return rc;
}

",
    );
    for m in modules {
        s.push_str(&format!("void {m}_io_open(void);\n"));
    }
    s.push('\n');
    s
}

/// `spawn_tasks`: a `pthread_create` call for each of the [`SPAWN_TASKS`] tasks of every
/// module, each with a start routine of its own, joined [`SPAWN_BATCH`] at a time.
fn spawn_core(modules: &[String]) -> String {
    let n = modules.len() * SPAWN_TASKS;
    let mut s = String::new();
    for m in modules {
        for j in 0..SPAWN_TASKS {
            s.push_str(&format!("void *{m}_task{j}(void *arg);\n"));
        }
    }
    s.push_str(&format!(
        "
static pthread_t spawn_th[{n}];

void spawn_tasks(void)
{{
    int i;

"
    ));
    let mut i = 0;
    for m in modules {
        for j in 0..SPAWN_TASKS {
            s.push_str(&format!(
                "    if (pthread_create(&spawn_th[{i}], NULL, {m}_task{j}, (void *){i}L) != 0)\n        abort();\n"
            ));
            i += 1;
            if i % SPAWN_BATCH == 0 || i == n {
                s.push_str(&format!(
                    "    for (i = {}; i < {i}; i++)\n        pthread_join(spawn_th[i], NULL);\n",
                    (i - 1) / SPAWN_BATCH * SPAWN_BATCH
                ));
            }
        }
    }
    s.push_str("}\n\n");
    s
}

/// The command table: `struct worker_stats` with a counter for each command of every module,
/// the connection's helpers, the commands ([`command_defs`]), `conn_dispatch` with a case for
/// each, `command_stats`, which sums every worker's counters, and the workers (a connection on
/// each one's stack, running its share of the commands and the statistics).
fn commands_core(modules: &[String]) -> String {
    let ncommands = modules.len() * COMMANDS;
    let mut s = format!(
        "/* The command table: every command counts itself in its worker's statistics, under the
 * worker's mutex. */
#define CMD_WORKERS {CMD_WORKERS}
#define CONN_STATES {CONN_STATES}
#define NCOMMANDS {ncommands}

struct worker_stats {{
    pthread_mutex_t mu;
    long cmds;
    long bytes;
"
    );
    for m in modules {
        for k in 0..COMMANDS {
            s.push_str(&format!("    long {m}_cmd{k}_hits;\n"));
        }
    }
    s.push_str(
        "};

struct worker {
    int id;
    struct worker_stats stats;
};

struct conn {
    int fd;
    int state;
    long nread;
    long nwritten;
    struct worker *w;
};

static struct worker workers[CMD_WORKERS];
static pthread_t worker_threads[CMD_WORKERS];
static pthread_mutex_t cmd_totals_mu = PTHREAD_MUTEX_INITIALIZER;
static struct worker_stats cmd_totals;

static void conn_set_state(struct conn *c, int state)
{
    c->state = state % CONN_STATES;
    if (log_verbose)
        log_line(\"conn\", c->fd);
}

static void conn_count(struct conn *c, long n)
{
    pthread_mutex_lock(&c->w->stats.mu);
    c->w->stats.cmds++;
    c->w->stats.bytes += n;
    pthread_mutex_unlock(&c->w->stats.mu);
}

",
    );
    for m in modules {
        for k in 0..COMMANDS {
            s.push_str(&format!("long {m}_command{k}(long v);\n"));
        }
    }
    s.push('\n');
    for (idx, m) in modules.iter().enumerate() {
        s.push_str(&command_defs(idx, m));
    }
    s.push_str("static long conn_dispatch(struct conn *c, int op, long v)\n{\n    switch (op) {\n");
    for (idx, m) in modules.iter().enumerate() {
        s.push_str(&command_cases(idx, m));
    }
    s.push_str(
        "    default:
        return 0;
    }
}

static void stats_aggregate(struct worker_stats *out, struct worker *w)
{
    pthread_mutex_lock(&w->stats.mu);
    out->cmds += w->stats.cmds;
    out->bytes += w->stats.bytes;
",
    );
    for m in modules {
        for k in 0..COMMANDS {
            s.push_str(&format!(
                "    out->{m}_cmd{k}_hits += w->stats.{m}_cmd{k}_hits;\n"
            ));
        }
    }
    s.push_str(
        "    pthread_mutex_unlock(&w->stats.mu);
}

static long command_stats(void)
{
    struct worker_stats agg;
    int i;

    memset(&agg, 0, sizeof agg);
    for (i = 0; i < CMD_WORKERS; i++)
        stats_aggregate(&agg, &workers[i]);
    pthread_mutex_lock(&cmd_totals_mu);
    cmd_totals.cmds = agg.cmds;
    cmd_totals.bytes = agg.bytes;
    pthread_mutex_unlock(&cmd_totals_mu);
    return agg.cmds;
}

/* A worker serves one connection, on its stack, running its share of the commands. */
static void *command_worker(void *arg)
{
    struct worker *w = (struct worker *)arg;
    struct conn c;
    long r = 0;
    int i, op;

    memset(&c, 0, sizeof c);
    c.fd = w->id;
    c.w = w;
    for (i = 0; i < server_iters; i++) {
        for (op = w->id; op < NCOMMANDS; op += CMD_WORKERS) {
            c.nread++;
            r += conn_dispatch(&c, op, i);
        }
        r += command_stats();
    }
    stats_add(&server_stats, (r + c.nwritten) & 0xff);
    return NULL;
}

void commands_start(void)
{
    int i;

    for (i = 0; i < CMD_WORKERS; i++) {
        workers[i].id = i;
        pthread_mutex_init(&workers[i].stats.mu, NULL);
    }
    for (i = 0; i < CMD_WORKERS; i++)
        if (pthread_create(&worker_threads[i], NULL, command_worker, &workers[i]) != 0)
            abort();
}

void commands_stop(void)
{
    int i;

    for (i = 0; i < CMD_WORKERS; i++)
        pthread_join(worker_threads[i], NULL);
    command_stats();
}

",
    );
    s
}

/// The [`COMMANDS`] commands of module `p`, the `idx`-th: `cmd_<p>_<k>(struct conn *c, long
/// v)`, each counting its own hit in its connection's worker, calling the module's entry
/// `<p>_command<k>`, and setting the connection's state; some count the bytes too. The text depends on
/// `idx` alone, so that the module can count its lines when it sets its budget.
fn command_defs(idx: usize, p: &str) -> String {
    let mut rng = Rng(0x0c3d_u64 ^ (idx as u64).wrapping_mul(0x9e37_79b9));
    let mut s = String::new();
    for k in 0..COMMANDS {
        s.push_str(&format!(
            "static long cmd_{p}_{k}(struct conn *c, long v)
{{
    long r;

    pthread_mutex_lock(&c->w->stats.mu);
    c->w->stats.{p}_cmd{k}_hits++;
    pthread_mutex_unlock(&c->w->stats.mu);
    r = {p}_command{k}(v);
    c->nwritten += r & 0xff;
"
        ));
        if rng.one_in(2) {
            s.push_str("    conn_count(c, r & 0xff);\n");
        }
        s.push_str(&format!(
            "    conn_set_state(c, {});\n    return r;\n}}\n\n",
            rng.below(CONN_STATES)
        ));
    }
    s
}

/// The cases of `conn_dispatch` for module `p`, the `idx`-th: opcodes `idx * COMMANDS` and on.
fn command_cases(idx: usize, p: &str) -> String {
    (0..COMMANDS)
        .map(|k| {
            format!(
                "    case {}:\n        return cmd_{p}_{k}(c, v);\n",
                idx * COMMANDS + k
            )
        })
        .collect()
}

/// The lines of `server.c`'s hub that belong to module `idx`, `p`: taken from its budget.
fn hub_lines(part: Shape, idx: usize, p: &str) -> usize {
    match part {
        Shape::Dispatch => preprocessed_lines(&engine_cases(idx, p)) + 1,
        Shape::Drivers => 2,
        Shape::Spawn => 4 * SPAWN_TASKS,
        // Its commands and cases, and its entries' declarations and its counters in the struct
        // and in `stats_aggregate`.
        Shape::Commands => {
            preprocessed_lines(&command_defs(idx, p))
                + preprocessed_lines(&command_cases(idx, p))
                + 3 * COMMANDS
        }
        _ => 0,
    }
}

impl Module<'_> {
    /// Adds the module's part of a hub shape, about `budget` preprocessed lines with the hub's
    /// lines for it in `server.c`.
    pub(super) fn add_hub(&mut self, part: Shape, budget: usize) {
        let budget = budget.saturating_sub(hub_lines(part, self.idx, &self.p));
        match part {
            Shape::Dispatch => self.add_engine_programs(budget),
            Shape::Drivers => self.add_storage_users(budget),
            Shape::Spawn => self.add_tasks(budget),
            Shape::Commands => self.add_command_entries(budget),
            _ => {}
        }
    }

    /// The module's hook, which the engine's cases call, and functions `<p>_eng<k>` that run
    /// a program of the module's operations (and one in four of a lower module's) through
    /// `engine_exec`, then update an object of the module under its lock; a worker group runs
    /// them.
    fn add_engine_programs(&mut self, budget: usize) {
        let p = self.p.clone();
        let hook = format!(
            "static pthread_mutex_t {p}_engine_mu = PTHREAD_MUTEX_INITIALIZER;
static long {p}_engine_sum;

long {p}_engine_hook(long acc, int op)
{{
    pthread_mutex_lock(&{p}_engine_mu);
    {p}_engine_sum += op;
    pthread_mutex_unlock(&{p}_engine_mu);
    return (acc * 7 + op) % 100003;
}}

"
        );
        let budget = budget.saturating_sub(preprocessed_lines(&hook));
        self.extra.push_str(&hook);
        let base = self.idx * ENGINE_OPS;
        let lower_base = self.idx - self.lower.len();
        self.add_object_units(budget, "eng", |m, t| {
            let len = m.rng.range(3, 8);
            let mut body = format!("    int prog[{len}];\n    long r;\n\n");
            for i in 0..len {
                let op = if !m.lower.is_empty() && m.rng.one_in(4) {
                    (lower_base + m.rng.below(m.lower.len())) * ENGINE_OPS + m.rng.below(ENGINE_OPS)
                } else {
                    base + m.rng.below(ENGINE_OPS)
                };
                body.push_str(&format!("    prog[{i}] = {op};\n"));
            }
            body.push_str(&format!("    r = engine_exec(prog, {len}, v);\n"));
            body.push_str(&m.locked_update(t));
            body
        });
    }

    /// The module's I/O methods and its two files, opened by `<p>_io_open` before any thread
    /// starts, and functions `<p>_io<k>` that read a file into a buffer of their own (on the
    /// stack or from `malloc`) through the pager, sometimes write it back to the other file,
    /// and update an object of the module under its lock; a worker group runs them.
    fn add_storage_users(&mut self, budget: usize) {
        let p = self.p.clone();
        let methods = format!(
            "static pthread_mutex_t {p}_io_mu = PTHREAD_MUTEX_INITIALIZER;
static long {p}_io_bytes;
static struct io_file {p}_db;
static struct io_file {p}_journal;

/* Called by the pager with the file's mutex held. */
static int {p}_io_read(struct io_file *f, char *buf, int n, long off)
{{
    int i;

    for (i = 0; i < n; i++)
        buf[i] = f->page[(off + i) % IO_PAGE];
    pthread_mutex_lock(&{p}_io_mu);
    {p}_io_bytes += n;
    pthread_mutex_unlock(&{p}_io_mu);
    return n;
}}

/* Called by the pager with the file's mutex held. */
static int {p}_io_write(struct io_file *f, const char *buf, int n, long off)
{{
    int i;

    for (i = 0; i < n; i++)
        f->page[(off + i) % IO_PAGE] = buf[i];
    return n;
}}

static const struct io_methods {p}_io_methods = {{ {p}_io_read, {p}_io_write }};

void {p}_io_open(void)
{{
    io_open(&{p}_db, &{p}_io_methods);
    io_open(&{p}_journal, &{p}_io_methods);
}}

"
        );
        let budget = budget.saturating_sub(preprocessed_lines(&methods));
        self.extra.push_str(&methods);
        self.add_object_units(budget, "io", |m, t| {
            let n = m.rng.range(4, 24);
            let (file, other) = if m.rng.one_in(2) {
                ("db", "journal")
            } else {
                ("journal", "db")
            };
            let mut body = if m.rng.one_in(2) {
                format!(
                    "    char *buf = malloc({n});
    long r;

    if (buf == NULL)
        abort();
"
                )
            } else {
                format!("    char buf[{n}];\n    long r;\n\n")
            };
            body.push_str(&format!(
                "    r = pager_read(&{p}_{file}, buf, {n}, v);\n    r += buf[0] + buf[{}];\n",
                n - 1
            ));
            if m.rng.one_in(2) {
                body.push_str(&format!(
                    "    buf[0] = (char)v;\n    r += pager_write(&{p}_{other}, buf, {}, v + {});\n",
                    m.rng.range(1, n),
                    m.rng.below(IO_PAGE)
                ));
            }
            if body.contains("malloc") {
                body.push_str("    free(buf);\n");
            }
            body.push_str(&m.locked_update(t));
            body
        });
    }

    /// The module's [`SPAWN_TASKS`] start routines `<p>_task<j>`, which `spawn_tasks` starts,
    /// each calling its share of functions `<p>_step<k>` that update an object of the module
    /// under its lock, then adding what they returned to `<p>_task_total` under its mutex.
    fn add_tasks(&mut self, budget: usize) {
        let p = self.p.clone();
        // Twelve lines an entry, as the shape was first measured with.
        self.add_entries(budget, ("task", SPAWN_TASKS, 12), |j, calls| {
            format!(
                "void *{p}_task{j}(void *arg)
{{
    long v = (long)arg;
    long r = 0;

{calls}    pthread_mutex_lock(&{p}_task_mu);
    {p}_task_total += r;
    pthread_mutex_unlock(&{p}_task_mu);
    return NULL;
}}

"
            )
        });
    }

    /// The module's [`COMMANDS`] entries `<p>_command<j>`, which its commands in `server.c`
    /// call, each calling its share of functions `<p>_step<k>` that update an object of the
    /// module under its lock, then adding what they returned to `<p>_command_total` under its
    /// mutex.
    fn add_command_entries(&mut self, budget: usize) {
        let p = self.p.clone();
        self.add_entries(budget, ("command", COMMANDS, 10), |j, calls| {
            format!(
                "long {p}_command{j}(long v)
{{
    long r = 0;

{calls}    pthread_mutex_lock(&{p}_command_mu);
    {p}_command_total += r;
    pthread_mutex_unlock(&{p}_command_mu);
    return r;
}}

"
            )
        });
    }

    /// `entries` entry points of the module of `entry_lines` lines each besides their calls,
    /// named `<p>_<what><j>` and made by `entry(j, calls)`, about `budget` lines with the
    /// functions `<p>_step<k>` they call (`calls`, a share of them each, adding to `r`), which
    /// update an object of the module under its lock; and the mutex and total `<p>_<what>_mu`
    /// and `<p>_<what>_total` the entries may use.
    fn add_entries(
        &mut self,
        budget: usize,
        (what, entries, entry_lines): (&str, usize, usize),
        entry: impl Fn(usize, &str) -> String,
    ) {
        let p = self.p.clone();
        let head = format!(
            "static pthread_mutex_t {p}_{what}_mu = PTHREAD_MUTEX_INITIALIZER;
static long {p}_{what}_total;

"
        );
        let fixed = preprocessed_lines(&head) + entries * entry_lines;
        let mut steps = String::new();
        let mut calls = vec![String::new(); entries];
        let mut step_types = Vec::new();
        let n = fill_units(budget, fixed, |k| {
            let t = self.rng.below(self.types.len());
            step_types.push(t);
            let ty = self.types[t].name.clone();
            let obj = self.object(t);
            let mut c = format!(
                "static long {p}_step{k}(struct {ty} *o, long v)\n{{\n    long r = v * {} + {k};\n\n",
                self.rng.range(2, 97)
            );
            c.push_str(&self.locked_update(t));
            c.push_str("    return r;\n}\n\n");
            calls[k % entries].push_str(&format!("    r += {p}_step{k}({obj}, v);\n"));
            let lines = preprocessed_lines(&c) + 1;
            steps.push_str(&c);
            lines
        });
        // With fewer steps than entries, the later entries call the first steps again.
        for (j, call) in calls.iter_mut().enumerate().skip(n) {
            let obj = self.object(step_types[j % n]);
            call.push_str(&format!("    r += {p}_step{}({obj}, v);\n", j % n));
        }
        self.extra.push_str(&head);
        self.extra.push_str(&steps);
        for (j, call) in calls.iter().enumerate() {
            self.extra.push_str(&entry(j, call));
        }
    }
}
