//! A generator of synthetic multi-file C programs that look like threaded servers.
//!
//! The benchmark of `locksmith check` needs inputs of a chosen size that resemble real POSIX-threads
//! code, so that its timings say something about the analysis of real programs rather than of toy
//! inputs. [`generate`] writes a program of several modules: each module is one `.c` file with
//! struct types that hold a mutex beside the data it guards, global objects of those types, objects
//! allocated once in a setup function and passed around by pointer, locked getters and setters,
//! lock and unlock helpers that wrap a shared `lock_acquire`/`lock_release` pair, global mutexes
//! with their counters, call chains 10 to 30 functions deep (some run entirely under a lock taken
//! by their top function), request handlers that use malloc'd per-request buffers and the string
//! and stdio functions, tables of handler pointers, worker threads forked in loops with arguments
//! cast from `void *`, and calls into lower modules, so call chains also cross files.
//!
//! Every module plants exactly one data race, an unprotected increment of its `<module>_unsafe_hits`
//! counter by the workers of its first worker group. Every other access to shared data is either
//! guarded by a consistent lock or ordered by thread creation (setup and the filling of thread
//! arguments happen before the forks); ThreadSanitizer reports exactly the planted races on runs
//! of the generated 10k and 100k programs. Locks follow a two-level order (a module lock may be held while taking one of
//! the leaf locks of `server.c`, never the other way round), so the programs also run without
//! deadlock: `server.c` holds `main`, which sets up every module, runs each module in a thread and
//! joins them. Its first argument is the number of iterations of every worker (default 2), its
//! second the number of threads per worker group (default 2).
//!
//! Sizes are counted in preprocessed lines, as `gcc -E` prints them, because that is what the
//! analysis reads: each file includes `<pthread.h>`, `<stddef.h>`, `<stdio.h>`, `<stdlib.h>` and
//! `<string.h>`, about [`SYSTEM_HEADER_LINES`] lines once preprocessed. Every module has the same
//! amount of user code at every size ([`MODULE_LINES`], at least two modules), so a program ten
//! times larger has about ten times the modules, each as large and reaching as much as before:
//! what grows is the program, not its shape. System headers and `common.h` are then about
//! two-thirds of the preprocessed lines at every size. [`Layout`] gives the older split too (one
//! file per 12,500 lines, the rest of the budget split evenly into user code), to compare with
//! figures measured with it.
//!
//! [`Shape`] chooses what the program is made of. [`Shape::Server`] is the server above, alone,
//! byte for byte as it was before shapes existed, so figures measured on it stay comparable. Each
//! other shape keeps that server and gives half of every module's budget to code of one shape
//! that real programs have and the server lacks (see [`Shape`]): a thread pool running function
//! pointers, callbacks handed to a library that locksmith cannot see, hundreds of distinct fork
//! sites, one large struct shared by every module, lock-heavy macros, a reader thread started
//! lazily by whichever request comes first, and an interpreter embedded in the server, whose
//! registered functions call back into its dispatcher; [`Shape::All`] has the first six, a
//! twelfth of the budget each (not the interpreter, so that its figures stay comparable with
//! those measured before it). Four more shapes each have one *hub* in `server.c` that grows
//! with the program, a part for every module (`hubs.rs`): a bytecode engine whose one
//! function has a case for each module's operations ([`Shape::Dispatch`]), a pager calling
//! every module's I/O methods through one pointer ([`Shape::Drivers`]), a function with a
//! `pthread_create` for each module's tasks ([`Shape::Spawn`]), and a command table whose
//! workers' statistics have a counter for each module's commands ([`Shape::Commands`]). They keep the server's guarantees: they compile with
//! `gcc -std=gnu11 -Wall -Werror -pthread`, run and terminate, take locks in one order (the
//! pool's queue, the fork counters, the connection, the big struct, and the interpreter's
//! registry, its allocation statistics and its modules' counters are leaves; the macros
//! take an object's lock before a module counter's lock or a leaf lock of `server.c`, never the
//! other way round), and their only races are the planted `_unsafe_hits` counters (the pool's
//! first job of each module increments its module's counter too). ThreadSanitizer agrees on
//! the 10k and 100k programs of every shape (`cargo bench --bench check -- --self-check --tsan
//! --sizes 10000 100000`). The callbacks shape adds `lib.c`, the library's
//! definitions: compile it with the program, but do not give it to locksmith
//! ([`is_analysed`]), which must see only the declarations in `common.h`.

mod hubs;
mod shapes;

use shapes::{library_file, shape_core, shape_header};

/// Lines that `gcc -std=gnu11 -E` prints for the system headers of one generated file (glibc 2.36,
/// gcc 12), measured on an empty file with the same includes.
pub const SYSTEM_HEADER_LINES: usize = 3_110;

/// Preprocessed lines per file: the target divided by this gives the number of files.
const LINES_PER_FILE: usize = 12_500;

/// Modules per layer of cross-module calls, the default of [`generate`]'s `layer`: a module's
/// update calls the update of the module below it, except at the bottom of its layer, and the
/// chains of its services call into modules below it in its layer only. Real servers are
/// layered this way (a few layers, each calling the one below), so what one module's call
/// reaches stays bounded as the program grows. With no bound (`layer` 0, the bench's program
/// until 2026-11-26) every update reaches every lower module, the pairs of (worker thread,
/// location it reaches) grow quadratically, and so do the facts of the analysis (ARCHITECTURE.md,
/// "The cost of each phase"). Until 2026-12-02 the services' chains still called any lower
/// module: a thread's handlers reached more distinct modules as modules were added (the forks
/// shape: a median thread reached 253 functions at 100k lines, 320 at 1M), until the picks
/// stopped meeting.
pub const LAYER_MODULES: usize = 8;

/// Lines of user code per module by default, at every size: what each of the two modules of
/// the 10k-line server has (so that program is the one it was before this was a constant).
/// Until 2026-12-03 the number of files was one per [`LINES_PER_FILE`] preprocessed lines, at
/// least two: the 10k programs' modules had a fifth of the user code of the 100k and 1M
/// programs', so each function reached a fifth as much, and a phase's growth from 10k to 1M
/// measured that change of shape as much as the change of size (sharing's work per user line
/// tripled from 10k to 100k, then stayed flat).
pub const MODULE_LINES: usize = 1_700;

/// How a program's budget is split into modules: see [`generate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Modules per layer of cross-module calls ([`LAYER_MODULES`] by default, 0 for no bound).
    pub layer: usize,
    /// Least lines of user code per module, the same at every size; 0 for one module per
    /// [`LINES_PER_FILE`] preprocessed lines.
    pub module_lines: usize,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            layer: LAYER_MODULES,
            module_lines: MODULE_LINES,
        }
    }
}

/// Most threads one worker group starts; the size of its thread and argument arrays.
const MAX_THREADS: usize = 8;

const MODULE_WORDS: &[&str] = &[
    "http", "cache", "auth", "store", "queue", "sched", "metrics", "router", "session", "proxy",
    "mail", "dns", "tls", "blob", "index", "repl", "conf", "pool", "timer", "audit",
];

const TYPE_WORDS: &[&str] = &[
    "conn", "entry", "table", "slot", "bucket", "peer", "account", "ticket", "job", "shard",
    "stream", "cursor", "lease", "channel", "frame", "record",
];

/// Guarded fields a struct type may have: C type and name.
const FIELDS: &[(&str, &str)] = &[
    ("long", "hits"),
    ("long", "bytes"),
    ("int", "state"),
    ("unsigned", "flags"),
    ("long", "last_seen"),
    ("int", "pending"),
    ("long", "errors"),
    ("int", "refs"),
    ("long", "version"),
    ("unsigned", "mask"),
    ("long", "total"),
    ("int", "level"),
];

/// The library of the callbacks shape: compiled with the program, never analysed.
pub const LIBRARY_FILE: &str = "lib.c";

/// Whether a generated file is a unit for locksmith: every `.c` file except [`LIBRARY_FILE`].
pub fn is_analysed(name: &str) -> bool {
    name.ends_with(".c") && name != LIBRARY_FILE
}

/// What a generated program is made of, besides the base server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The base server alone, byte-identical to the generator before shapes.
    Server,
    /// A thread pool in `server.c`: a global queue of `struct job { void (*run)(void *); void
    /// *arg; ... }` guarded by a mutex and a condition variable, worker threads started in a loop
    /// that pop jobs and call `job->run(job->arg)`, and every module submitting jobs whose `run` is
    /// one of its own functions (which update its objects under their locks; the first also
    /// increments the planted counter).
    Pool,
    /// Callbacks registered with a library declared `extern` in `common.h` and defined in
    /// [`LIBRARY_FILE`], directly (`lib_register(name, cb, ctx)`) and through `static const struct
    /// lib_ops` tables (`lib_register_ops(&ops)`). The library runs each in a thread of its own.
    Callbacks,
    /// Distinct `pthread_create` calls, a few per batch function, each running a handler or a
    /// query: joined at once, joined at the end of its batch, or detached and awaited through a
    /// condition variable. Fork sites grow linearly with the program.
    Forks,
    /// One large struct of `common.h` (dozens of fields, a mutex, nested structs, arrays), one
    /// global instance in `server.c` whose address `main` hands to every module, which keeps it
    /// in a static pointer and passes it down call chains that update its fields under its lock
    /// (taken at the bottom of a chain or around it).
    BigStruct,
    /// Statement macros of `common.h` that expand to lock/unlock pairs (`WITH_LOCK`, `WITH_MUTEX`,
    /// `WITH_LOCK2`, `STAT_INC`, `STAT_ADD`, `STAT_GET`), a few per line, some nested (an
    /// object's lock, then a counter's or the statistics' lock; never the other way round).
    Macros,
    /// A connection whose reader thread is started by the first request (`conn_call` in
    /// `server.c` starts it under the connection's lock if it is not running yet), as clients of
    /// a server or a file system do: every module's requests (`<p>_rpc<k>`, each with a buffer
    /// of its own from `malloc`) go through `conn_call`, so the function that may fork the
    /// reader is reached from call points that grow linearly with the program.
    Lazy,
    /// All six shapes above at once, a twelfth of each module's budget each ([`Shape::Interp`]
    /// and the hubs below are not among them).
    All,
    /// An interpreter embedded in the server, as Lua is: `server.c` keeps a registry of C
    /// functions `int (*)(struct vm *, int)` that every module fills with a NULL-terminated
    /// table of its own (`vm_register`, from `<p>_vm_init`, which `main` calls before any thread
    /// starts), and calls them by index (`vm_calli`, through a function pointer of the table)
    /// or by name (`vm_call`). Each module's functions allocate a small object (`vm_alloc`,
    /// which counts its bytes under the lock of `vm_global`), call back into the dispatcher, and
    /// update a counter of the module under its own mutex, never held across a call (sometimes
    /// `vm_global`'s histogram too): every function of every module is on one cycle of calls
    /// through the registry. A group of worker threads per module, each with a `struct vm` of
    /// its own, calls the module's functions in a loop.
    Interp,
    /// A bytecode engine in `server.c`, as SQLite's: `engine_exec`, one function whose switch
    /// has two dozen cases for each module, so it grows with the program (3,000 lines at 100k,
    /// 30,000 at 1M). The cases update registers under mutexes taken through a table of
    /// methods chosen at start-up, and call their module's hook; every module runs programs of
    /// its operations (and of lower modules') through it.
    Dispatch,
    /// A storage layer in `server.c`, as SQLite's: every module opens two files with I/O
    /// methods of its own, and the pager calls them through the file's table, under the file's
    /// mutex (initialised and taken through mutex methods chosen at start-up). The modules read
    /// into buffers of their own, on the stack or from `malloc`, which the read methods write:
    /// the pager's one call through a pointer reaches every module's method, which counts
    /// under its module's mutex.
    Drivers,
    /// `spawn_tasks` in `server.c`, which `main` runs while the modules run: one
    /// `pthread_create` for each of 16 tasks of every module, each with a start routine of its
    /// own, joined 32 at a time, so one function's fork sites grow with the program.
    Spawn,
    /// A command table in `server.c`, as a cache server's: eight commands per module, each
    /// counting its hits in a counter of its own in the statistics of the worker its
    /// connection belongs to (`c->w->stats.<p>_cmd<k>_hits`, under the worker's mutex), so
    /// that one struct has a counter for every command of the program, then calling its
    /// module's entry (`<p>_command<k>`, which updates the module's objects under their locks);
    /// `conn_dispatch`, one switch calling each command with the same connection; and
    /// `command_stats`, which sums every counter of every worker. Four workers, started by
    /// `main` while the modules run, each serve a connection on their stack and run their share
    /// of the commands.
    Commands,
}

impl Shape {
    /// Every shape, in the order the bench runs them.
    pub const EVERY: [Shape; 13] = [
        Shape::Server,
        Shape::Pool,
        Shape::Callbacks,
        Shape::Forks,
        Shape::BigStruct,
        Shape::Macros,
        Shape::Lazy,
        Shape::All,
        Shape::Interp,
        Shape::Dispatch,
        Shape::Drivers,
        Shape::Spawn,
        Shape::Commands,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shape::Server => "server",
            Shape::Pool => "pool",
            Shape::Callbacks => "callbacks",
            Shape::Forks => "forks",
            Shape::BigStruct => "bigstruct",
            Shape::Macros => "macros",
            Shape::Lazy => "lazy",
            Shape::All => "all",
            Shape::Interp => "interp",
            Shape::Dispatch => "dispatch",
            Shape::Drivers => "drivers",
            Shape::Spawn => "spawn",
            Shape::Commands => "commands",
        }
    }

    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::EVERY.into_iter().find(|s| s.name() == name)
    }

    /// The single shapes whose code is added to the server.
    fn parts(self) -> &'static [Shape] {
        match self {
            Shape::Server => &[],
            Shape::Pool => &[Shape::Pool],
            Shape::Callbacks => &[Shape::Callbacks],
            Shape::Forks => &[Shape::Forks],
            Shape::BigStruct => &[Shape::BigStruct],
            Shape::Macros => &[Shape::Macros],
            Shape::Lazy => &[Shape::Lazy],
            Shape::All => &[
                Shape::Pool,
                Shape::Callbacks,
                Shape::Forks,
                Shape::BigStruct,
                Shape::Macros,
                Shape::Lazy,
            ],
            Shape::Interp => &[Shape::Interp],
            Shape::Dispatch => &[Shape::Dispatch],
            Shape::Drivers => &[Shape::Drivers],
            Shape::Spawn => &[Shape::Spawn],
            Shape::Commands => &[Shape::Commands],
        }
    }
}

/// Figures about a generated program, found by scanning its text.
#[derive(Clone, Copy, Debug, Default)]
pub struct Census {
    /// Lines of all generated files, before preprocessing.
    pub user_lines: usize,
    /// Function definitions.
    pub functions: usize,
    /// Calls of `pthread_create`.
    pub fork_sites: usize,
    /// Planted races: unprotected increments of a module's `_unsafe_hits` counter.
    pub planted_races: usize,
}

/// Counts the figures of [`Census`] in the analysed files of a generated program (not in
/// [`LIBRARY_FILE`]). The generator always writes the opening brace of a function body alone at
/// the start of a line, and nothing else that way. A planted race is a counter incremented
/// unprotected somewhere, however many places do it.
pub fn census(files: &[(String, String)]) -> Census {
    let mut c = Census::default();
    let mut planted = std::collections::BTreeSet::new();
    for (name, text) in files {
        if name == LIBRARY_FILE {
            continue;
        }
        for line in text.lines() {
            c.user_lines += 1;
            if line == "{" {
                c.functions += 1;
            }
            if line.contains("pthread_create(") {
                c.fork_sites += 1;
            }
            if let Some(end) = line.find("_unsafe_hits++") {
                let start = line[..end]
                    .rfind(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .map_or(0, |i| i + 1);
                planted.insert(line[start..end].to_string());
            }
        }
    }
    c.planted_races = planted.len();
    c
}

/// A multi-file pthread program of roughly `target_lines` preprocessed lines (counting the
/// analysed files only): a list of (file name, C text). The same seed always gives the same
/// program. The files are `common.h`, `server.c` (which holds `main`), one `.c` file per further
/// module and, for the callbacks shape, [`LIBRARY_FILE`]; compile them all with
/// `gcc -std=gnu11 -pthread` in one directory. A module calls into lower modules of its layer
/// of `layer` modules only (no bound when 0; see [`LAYER_MODULES`]). `shape` says what the modules are made of
/// besides the base server ([`Shape::Server`]: nothing).
pub fn generate(
    target_lines: usize,
    seed: u64,
    layout: Layout,
    shape: Shape,
) -> Vec<(String, String)> {
    let parts = shape.parts();
    let mut rng = Rng(seed ^ 0x5851_f42d_4c95_7f2d);
    let modules = module_count(target_lines, layout.module_lines, parts);
    let layer = layout.layer;
    let names: Vec<String> = (0..modules).map(module_name).collect();
    let header = common_header(&names, parts);
    let per_file_overhead = SYSTEM_HEADER_LINES + preprocessed_lines(&header);
    let user_budget = target_lines.saturating_sub(modules * per_file_overhead);
    let per_module = (user_budget / modules).max(400);

    let mut files = vec![("common.h".to_string(), header)];
    for (idx, name) in names.iter().enumerate() {
        let chains_down = idx > 0 && (layer == 0 || idx % layer != 0);
        // The modules below this one in its layer: all it calls into (its update chain and
        // its services' chains), so that what one module reaches stays bounded.
        let layer_start = if layer == 0 { 0 } else { idx - idx % layer };
        let lower = &names[layer_start..idx];
        let mut module = Module::new(idx, name.clone(), lower, chains_down, &mut rng);
        let core = if idx == 0 {
            core_prelude() + &shape_core(parts, &names)
        } else {
            String::new()
        };
        let tail = if idx == 0 {
            main_function(&names, parts)
        } else {
            String::new()
        };
        let budget =
            per_module.saturating_sub(preprocessed_lines(&core) + preprocessed_lines(&tail));
        let shape_budget = if parts.is_empty() { 0 } else { budget / 2 };
        module.fill(budget - shape_budget);
        for &part in parts {
            module.add_part(part, shape_budget / parts.len());
        }
        let body = module.finish();
        let file = if idx == 0 {
            "server.c".to_string()
        } else {
            format!("{name}.c")
        };
        files.push((file, format!("{core}{body}{tail}")));
    }
    if parts.contains(&Shape::Callbacks) {
        files.push((LIBRARY_FILE.to_string(), library_file()));
    }
    files
}

/// The number of modules of a program of `target_lines` lines: one per [`LINES_PER_FILE`] when
/// `module_lines` is 0, else as many as fit with at least `module_lines` lines of user code each
/// beside their headers (whose `common.h` declares every module, so it grows with their number);
/// at least two either way.
fn module_count(target_lines: usize, module_lines: usize, parts: &[Shape]) -> usize {
    if module_lines == 0 {
        return (target_lines / LINES_PER_FILE).max(2);
    }
    let fits = |m: usize| {
        let names: Vec<String> = (0..m).map(module_name).collect();
        let per_file = SYSTEM_HEADER_LINES + preprocessed_lines(&common_header(&names, parts));
        m * (per_file + module_lines) <= target_lines
    };
    // `fits` is monotone in m: double to a bound, then bisect.
    let mut hi = 4;
    while fits(hi) {
        hi *= 2;
    }
    let mut lo = 2;
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `1 / n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// Lines `gcc -E` prints for generated text: a line that uses a macro of a system header
/// (`NULL`, `PTHREAD_MUTEX_INITIALIZER`, `PTHREAD_COND_INITIALIZER`) becomes five, because its expansion is put on a line of
/// its own between two line markers.
fn preprocessed_lines(s: &str) -> usize {
    s.lines()
        .map(|l| {
            if l.contains("NULL")
                || l.contains("PTHREAD_MUTEX_INITIALIZER")
                || l.contains("PTHREAD_COND_INITIALIZER")
            {
                5
            } else {
                1
            }
        })
        .sum()
}

fn module_name(idx: usize) -> String {
    if idx == 0 {
        return "core".to_string();
    }
    let k = idx - 1;
    let word = MODULE_WORDS[k % MODULE_WORDS.len()];
    match k / MODULE_WORDS.len() {
        0 => word.to_string(),
        round => format!("{word}{round}"),
    }
}

/// `common.h`: the request and statistics types, the shared helpers of `server.c`, the interface
/// of every module and what the shape's `parts` share.
fn common_header(modules: &[String], parts: &[Shape]) -> String {
    let mut s = String::from(
        "/* Types and interfaces shared by every module of the server. */
#ifndef SERVER_COMMON_H
#define SERVER_COMMON_H

#include <pthread.h>
#include <stddef.h>

struct request {
    int id;
    int kind;
    size_t len;
    char *body;
    char path[64];
};

typedef int (*handler_fn)(struct request *req);

struct stats {
    pthread_mutex_t lock;
    long requests;
    long bytes;
    long errors;
};

extern struct stats server_stats;
extern int log_verbose;
extern int server_iters;
extern int server_threads;

void lock_acquire(pthread_mutex_t *m);
void lock_release(pthread_mutex_t *m);
void stats_add(struct stats *s, long bytes);
long stats_requests(struct stats *s);
long stats_bytes(struct stats *s);
void log_line(const char *who, long value);
long log_count(void);
int request_init(struct request *req, int id, int kind, const char *path);
void request_free(struct request *req);

",
    );
    for m in modules {
        s.push_str(&format!(
            "void {m}_setup(void);\nvoid {m}_run(int nthreads);\nlong {m}_query(long key);\nlong {m}_update(long key, long delta);\n"
        ));
    }
    for part in parts {
        s.push_str(&shape_header(*part, modules));
    }
    s.push_str("\n#endif\n");
    s
}

/// The shared helpers of `server.c`: statistics, logging, requests and the lock wrappers.
fn core_prelude() -> String {
    "/* The server's shared state and helpers, the core module and main. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include \"common.h\"

struct stats server_stats = { .lock = PTHREAD_MUTEX_INITIALIZER };
pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
long log_lines;
int log_verbose;
int server_iters = 2;
int server_threads = 2;

void lock_acquire(pthread_mutex_t *m)
{
    if (pthread_mutex_lock(m) != 0)
        abort();
}

void lock_release(pthread_mutex_t *m)
{
    if (pthread_mutex_unlock(m) != 0)
        abort();
}

void stats_add(struct stats *s, long bytes)
{
    lock_acquire(&s->lock);
    s->requests++;
    s->bytes += bytes;
    lock_release(&s->lock);
}

long stats_requests(struct stats *s)
{
    long v;

    lock_acquire(&s->lock);
    v = s->requests;
    lock_release(&s->lock);
    return v;
}

long stats_bytes(struct stats *s)
{
    long v;

    lock_acquire(&s->lock);
    v = s->bytes;
    lock_release(&s->lock);
    return v;
}

void log_line(const char *who, long value)
{
    pthread_mutex_lock(&log_lock);
    log_lines++;
    if (log_verbose)
        printf(\"%s %ld\\n\", who, value);
    pthread_mutex_unlock(&log_lock);
}

long log_count(void)
{
    long v;

    pthread_mutex_lock(&log_lock);
    v = log_lines;
    pthread_mutex_unlock(&log_lock);
    return v;
}

int request_init(struct request *req, int id, int kind, const char *path)
{
    req->id = id;
    req->kind = kind;
    snprintf(req->path, sizeof req->path, \"%s\", path);
    req->len = strlen(req->path) + 16;
    req->body = malloc(req->len + 1);
    if (req->body == NULL)
        abort();
    memset(req->body, 'x', req->len);
    req->body[req->len] = '\\0';
    return 0;
}

void request_free(struct request *req)
{
    free(req->body);
    req->body = NULL;
}

"
    .to_string()
}

/// The module table and `main`, at the end of `server.c`: `main` sets up the modules, runs each
/// in a thread and joins them. The shape's `parts` add statements after the setups (before any
/// thread is started), between the modules' creates and joins, and after the joins.
fn main_function(modules: &[String], parts: &[Shape]) -> String {
    let mut after_setup = String::new();
    let mut while_running = String::new();
    let mut after_join = String::new();
    for part in parts {
        match part {
            Shape::Dispatch | Shape::Drivers => {
                after_setup.push_str(&hubs::hub_setup(*part, modules))
            }
            Shape::Commands => {
                after_setup.push_str("    commands_start();\n");
                after_join.push_str("    commands_stop();\n");
            }
            Shape::Spawn => while_running.push_str("    spawn_tasks();\n"),
            Shape::Pool => {
                after_setup.push_str("    pool_start(server_threads + 2);\n");
                after_join.push_str("    pool_stop();\n");
            }
            Shape::Callbacks => after_join.push_str("    lib_shutdown();\n"),
            Shape::Lazy => after_join.push_str("    conn_close();\n"),
            Shape::Interp => {
                for m in modules {
                    after_setup.push_str(&format!("    {m}_vm_init();\n"));
                }
            }
            Shape::BigStruct => {
                after_setup.push_str("    big_init(&big_global);\n");
                for m in modules {
                    after_setup.push_str(&format!("    {m}_attach(&big_global);\n"));
                }
            }
            _ => {}
        }
    }
    let mut s = String::from(
        "struct module_entry {
    const char *name;
    void (*setup)(void);
    void (*run)(int nthreads);
};

static const struct module_entry modules[] = {
",
    );
    for m in modules {
        s.push_str(&format!("    {{ \"{m}\", {m}_setup, {m}_run }},\n"));
    }
    s.push_str(&format!(
        "}};

static void *module_thread(void *arg)
{{
    const struct module_entry *m = (const struct module_entry *)arg;

    m->run(server_threads);
    return NULL;
}}

int main(int argc, char **argv)
{{
    pthread_t th[{n}];
    size_t i;

    if (argc > 1)
        server_iters = atoi(argv[1]);
    if (argc > 2)
        server_threads = atoi(argv[2]);
    log_verbose = getenv(\"SERVER_VERBOSE\") != NULL;
    for (i = 0; i < {n}; i++)
        modules[i].setup();
{after_setup}    for (i = 0; i < {n}; i++)
        if (pthread_create(&th[i], NULL, module_thread, (void *)&modules[i]) != 0)
            abort();
{while_running}    for (i = 0; i < {n}; i++)
        pthread_join(th[i], NULL);
{after_join}    printf(\"requests %ld bytes %ld log %ld\\n\", stats_requests(&server_stats),
           stats_bytes(&server_stats), log_count());
    return 0;
}}
",
        n = modules.len()
    ));
    s
}

/// A struct type of a module: its name and guarded fields.
struct Ty {
    name: String,
    fields: Vec<(&'static str, &'static str)>,
}

/// The entry point of one service: the top of its free call chain, the type it works on and
/// the top of its locked chain.
struct Service {
    step_top: String,
    locked_top: String,
    ty: usize,
}

/// One module being generated. Its text is kept in sections that are concatenated in order at
/// the end, so that every function is defined before it is called.
struct Module<'a> {
    /// The module's index in the program (0 for `server.c`).
    idx: usize,
    p: String,
    /// The modules below this one in its layer, the only ones its calls reach.
    lower: &'a [String],
    /// Whether `<p>_update` calls the update of the module below (see [`LAYER_MODULES`]).
    chains_down: bool,
    rng: &'a mut Rng,
    types: Vec<Ty>,
    services: Vec<Service>,
    handlers: Vec<String>,
    counters: usize,
    groups: usize,
    decls: String,
    helpers: String,
    code: String,
    workers: String,
    /// The code of the shape's parts, after the worker groups.
    extra: String,
    /// Statements of the shape's parts at the start of `<p>_run`.
    run_hooks: String,
}

impl<'a> Module<'a> {
    fn new(
        idx: usize,
        p: String,
        lower: &'a [String],
        chains_down: bool,
        rng: &'a mut Rng,
    ) -> Self {
        let mut decls = String::new();
        if idx > 0 {
            decls.push_str(&format!(
                "/* Module {p}: services, request handlers and worker groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include \"common.h\"
\n"
            ));
        }
        decls.push_str(&format!(
            "int {p}_dispatch(struct request *req);
int {p}_route(struct request *req);

pthread_mutex_t {p}_batch_mu = PTHREAD_MUTEX_INITIALIZER;
long {p}_batch_total;
long {p}_unsafe_hits;
\n"
        ));
        let mut helpers = String::new();
        helpers.push_str(&format!(
            "static inline long {p}_mix(long v, int k)
{{
    return (long)(((unsigned long)v * 31u + (unsigned long)k) % 100003u);
}}

void {p}_batch_begin(void)
{{
    pthread_mutex_lock(&{p}_batch_mu);
}}

void {p}_batch_end(void)
{{
    pthread_mutex_unlock(&{p}_batch_mu);
}}
\n"
        ));
        Module {
            idx,
            p,
            lower,
            chains_down,
            rng,
            types: Vec::new(),
            services: Vec::new(),
            handlers: Vec::new(),
            counters: 0,
            groups: 0,
            decls,
            helpers,
            code: String::new(),
            workers: String::new(),
            extra: String::new(),
            run_hooks: String::new(),
        }
    }

    /// Estimated preprocessed lines of what `finish` adds after the sections.
    fn tail_lines(&self) -> usize {
        2 * self.handlers.len() + self.types.len() + self.groups + 45
    }

    /// Adds services, types, counters and worker groups until the module has about `budget`
    /// preprocessed lines. It stops before a step that would probably overshoot by more than
    /// half a step, so the sizes are centred on the budget.
    fn fill(&mut self, budget: usize) {
        let mut counted = [0usize; 4];
        let mut lines = 0;
        self.add_type();
        self.add_counter();
        loop {
            let before = lines;
            let s = self.services.len();
            if s > 0 && self.types.len() < 24 && self.rng.one_in(3) {
                self.add_type();
            }
            if s > 0 && s.is_multiple_of(4) {
                self.add_counter();
            }
            self.add_service();
            if s.is_multiple_of(3) {
                self.add_group();
            }
            let sections = [&self.decls, &self.helpers, &self.code, &self.workers];
            for (done, section) in counted.iter_mut().zip(sections) {
                lines += preprocessed_lines(&section[*done..]);
                *done = section.len();
            }
            if lines + self.tail_lines() + (lines - before) / 2 >= budget {
                break;
            }
        }
    }

    fn add_type(&mut self) {
        let p = &self.p;
        let word = TYPE_WORDS[self.rng.below(TYPE_WORDS.len())];
        let base = format!("{p}_{word}");
        let name = if self.types.iter().any(|t| t.name == base) {
            format!("{base}{}", self.types.len())
        } else {
            base
        };
        let wanted = self.rng.range(3, 6);
        let mut fields: Vec<(&'static str, &'static str)> = Vec::new();
        while fields.len() < wanted {
            let f = FIELDS[self.rng.below(FIELDS.len())];
            if !fields.contains(&f) {
                fields.push(f);
            }
        }

        let d = &mut self.decls;
        d.push_str(&format!("struct {name} {{\n    pthread_mutex_t lock;\n"));
        for (cty, f) in &fields {
            d.push_str(&format!("    {cty} {f};\n"));
        }
        d.push_str(&format!(
            "    char label[48];
}};

struct {name} {name}_main = {{ .lock = PTHREAD_MUTEX_INITIALIZER }};
struct {name} *{name}_shared;
\n"
        ));

        let h = &mut self.helpers;
        h.push_str(&format!(
            "static inline void {name}_lock(struct {name} *o)
{{
    lock_acquire(&o->lock);
}}

static inline void {name}_unlock(struct {name} *o)
{{
    lock_release(&o->lock);
}}

struct {name} *{name}_new(const char *label)
{{
    struct {name} *o = malloc(sizeof *o);

    if (o == NULL)
        abort();
    memset(o, 0, sizeof *o);
    pthread_mutex_init(&o->lock, NULL);
    snprintf(o->label, sizeof o->label, \"%s\", label);
    return o;
}}
\n"
        ));
        for (cty, f) in &fields {
            h.push_str(&format!(
                "long {name}_get_{f}(struct {name} *o)
{{
    long v;

    {name}_lock(o);
    v = (long)o->{f};
    {name}_unlock(o);
    return v;
}}

void {name}_add_{f}(struct {name} *o, long d)
{{
    {name}_lock(o);
    o->{f} += ({cty})d;
    {name}_unlock(o);
}}
\n"
            ));
        }
        let (_, f0) = fields[0];
        h.push_str(&format!(
            "void {name}_snapshot(struct {name} *o, char *out, size_t cap)
{{
    {name}_lock(o);
    snprintf(out, cap, \"%s:%ld\", o->label, (long)o->{f0});
    {name}_unlock(o);
}}
\n"
        ));
        self.types.push(Ty { name, fields });
    }

    fn add_counter(&mut self) {
        let p = &self.p;
        let k = self.counters;
        self.decls.push_str(&format!(
            "pthread_mutex_t {p}_mu{k} = PTHREAD_MUTEX_INITIALIZER;\nlong {p}_served{k};\n\n"
        ));
        self.helpers.push_str(&format!(
            "void {p}_count{k}(long d)
{{
    pthread_mutex_lock(&{p}_mu{k});
    {p}_served{k} += d;
    pthread_mutex_unlock(&{p}_mu{k});
}}

long {p}_read{k}(void)
{{
    long v;

    pthread_mutex_lock(&{p}_mu{k});
    v = {p}_served{k};
    pthread_mutex_unlock(&{p}_mu{k});
    return v;
}}
\n"
        ));
        self.counters += 1;
    }

    /// An object expression of type `t`: its shared heap object or its global object.
    fn object(&mut self, t: usize) -> String {
        let name = &self.types[t].name;
        if self.rng.one_in(3) {
            format!("&{name}_main")
        } else {
            format!("{name}_shared")
        }
    }

    fn field(&mut self, t: usize) -> (&'static str, &'static str) {
        let fields = &self.types[t].fields;
        fields[self.rng.below(fields.len())]
    }

    /// A service: a chain run under the lock of its object, a chain of wrappers that takes
    /// locks itself, and one or two handlers that call the latter.
    fn add_service(&mut self) {
        let s = self.services.len();
        let t = self.rng.below(self.types.len());
        let locked_top = self.locked_chain(s, t);
        let step_top = self.free_chain(s, t, &locked_top);
        self.services.push(Service {
            step_top,
            locked_top,
            ty: t,
        });
        for _ in 0..self.rng.range(1, 2) {
            self.add_handler(s);
        }
    }

    /// Functions `<p>_s<s>_in<k>` that touch the fields of `o` directly, called under its lock by
    /// `<p>_s<s>_locked`, which is returned.
    fn locked_chain(&mut self, s: usize, t: usize) -> String {
        let p = self.p.clone();
        let ty = self.types[t].name.clone();
        let depth = self.rng.range(10, 30);
        let mut c = String::new();
        c.push_str(&format!(
            "static long {p}_s{s}_in0(struct {ty} *o, long v)\n{{\n"
        ));
        let touched = self.rng.range(1, 3);
        let mut first = None;
        for _ in 0..touched {
            let (cty, f) = self.field(t);
            first.get_or_insert(f);
            c.push_str(&match cty {
                "unsigned" => format!("    o->{f} |= (unsigned)(v & 0xff);\n"),
                "int" => format!("    o->{f} = (int)(v % 97);\n"),
                _ => format!("    o->{f} += v;\n"),
            });
        }
        if self.rng.one_in(3) {
            c.push_str("    stats_add(&server_stats, v & 15);\n");
        }
        c.push_str(&format!(
            "    return (long)o->{};\n}}\n\n",
            first.unwrap_or("label[0]")
        ));
        for k in 1..depth {
            let prev = format!("{p}_s{s}_in{}", k - 1);
            c.push_str(&format!(
                "long {p}_s{s}_in{k}(struct {ty} *o, long v)\n{{\n"
            ));
            match self.rng.below(3) {
                0 => {
                    c.push_str(&format!("    return {prev}(o, v + {k});\n"));
                }
                1 => {
                    c.push_str(&format!(
                        "    long w = {p}_mix(v, {k});\n\n    return {prev}(o, w);\n"
                    ));
                }
                _ => {
                    let (_, f) = self.field(t);
                    c.push_str(&format!(
                        "    if (v > {})\n        return {prev}(o, v - {k});\n    return {prev}(o, v + 1) + (long)o->{f};\n",
                        1000 + 37 * k
                    ));
                }
            }
            c.push_str("}\n\n");
        }
        let top = format!("{p}_s{s}_locked");
        c.push_str(&format!(
            "long {top}(struct {ty} *o, long v)
{{
    long r;

    {ty}_lock(o);
    r = {p}_s{s}_in{}(o, v);
    {ty}_unlock(o);
    return r;
}}
\n",
            depth - 1
        ));
        self.code.push_str(&c);
        top
    }

    /// Wrappers `<p>_s<s>_step<k>` of each other that take no lock themselves but call getters,
    /// setters, counters, locked chains and, at the top, a lower module. Returns the top.
    fn free_chain(&mut self, s: usize, t: usize, locked_top: &str) -> String {
        let p = self.p.clone();
        let ty = self.types[t].name.clone();
        let depth = self.rng.range(10, 30);
        let mut c = String::new();
        let (_, f) = self.field(t);
        let (_, g) = self.field(t);
        c.push_str(&format!(
            "long {p}_s{s}_step0(struct request *req, struct {ty} *o)
{{
    {ty}_add_{f}(o, (long)req->len);
    return {ty}_get_{g}(o) + req->id;
}}
\n"
        ));
        for k in 1..depth {
            let prev = format!("{p}_s{s}_step{}", k - 1);
            c.push_str(&format!(
                "long {p}_s{s}_step{k}(struct request *req, struct {ty} *o)\n{{\n"
            ));
            if k == depth - 1 && !self.lower.is_empty() {
                let other = if self.rng.one_in(2) {
                    self.lower.len() - 1
                } else {
                    self.rng.below(self.lower.len())
                };
                let m = &self.lower[other];
                if self.rng.one_in(2) {
                    c.push_str(&format!(
                        "    long r = {m}_update((long)req->id, {k});\n\n    return r + {prev}(req, o);\n"
                    ));
                } else {
                    c.push_str(&format!(
                        "    long r = {m}_query((long)req->kind);\n\n    return {prev}(req, o) - r;\n"
                    ));
                }
                c.push_str("}\n\n");
                continue;
            }
            match self.rng.below(7) {
                0 | 1 => {
                    c.push_str(&format!("    return {prev}(req, o);\n"));
                }
                2 => {
                    c.push_str(&format!(
                        "    char tag[64];
    int n = snprintf(tag, sizeof tag, \"{p}.{s}.%d\", req->id % 1000);

    if (n > 0)
        req->kind += (int)(strlen(tag) % 3);
    return {prev}(req, o);\n"
                    ));
                }
                3 => {
                    c.push_str(&format!(
                        "    long r = {locked_top}(o, (long)req->id);\n\n    return r + {prev}(req, o);\n"
                    ));
                }
                4 => {
                    let k2 = self.rng.below(self.counters);
                    c.push_str(&format!(
                        "    {p}_count{k2}(1);\n    return {prev}(req, o);\n"
                    ));
                }
                5 => {
                    let (_, f) = self.field(t);
                    c.push_str(&format!(
                        "    if ({ty}_get_{f}(o) < 0)\n        return -1;\n    return {prev}(req, o);\n"
                    ));
                }
                _ => {
                    if s > 0 && self.rng.one_in(2) {
                        let other = self.rng.below(s);
                        let top = self.services[other].locked_top.clone();
                        let oty = self.services[other].ty;
                        let oname = &self.types[oty].name;
                        c.push_str(&format!(
                            "    long r = {top}(&{oname}_main, {k});\n\n    return {prev}(req, o) + (r & 1);\n"
                        ));
                    } else {
                        c.push_str(&format!(
                            "    {p}_batch_begin();
    {p}_batch_total += {k};
    {p}_batch_end();
    return {prev}(req, o);\n"
                        ));
                    }
                }
            }
            c.push_str("}\n\n");
        }
        self.code.push_str(&c);
        format!("{p}_s{s}_step{}", depth - 1)
    }

    fn add_handler(&mut self, s: usize) {
        let p = self.p.clone();
        let h = self.handlers.len();
        let name = format!("{p}_handle{h}");
        let step = self.services[s].step_top.clone();
        let t = self.services[s].ty;
        let ty = self.types[t].name.clone();
        let obj = self.object(t);
        let mut c = String::new();
        match self.rng.below(3) {
            0 => {
                c.push_str(&format!(
                    "int {name}(struct request *req)
{{
    size_t cap = req->len + 160;
    char *buf = malloc(cap);
    long r;
    int n;

    if (buf == NULL)
        return -1;
    n = snprintf(buf, cap, \"{p} %s id=%d kind=%d \", req->path, req->id, req->kind);
    if (n < 0)
        n = 0;
    if ((size_t)n + req->len < cap) {{
        memcpy(buf + n, req->body, req->len);
        buf[(size_t)n + req->len] = '\\0';
    }}
    r = {step}(req, {obj});
    stats_add(&server_stats, (long)strlen(buf));
    free(buf);
    return (int)(r & 0xff);
}}
\n"
                ));
            }
            1 => {
                c.push_str(&format!(
                    "int {name}(struct request *req)
{{
    char key[80];
    const char *slash = strrchr(req->path, '/');
    long id;

    snprintf(key, sizeof key, \"%s\", slash != NULL ? slash + 1 : req->path);
    id = strtol(key, NULL, 10) + req->id;
    log_line(\"{name}\", id);
    return (int)({step}(req, {obj}) % 256);
}}
\n"
                ));
            }
            _ => {
                let k = self.rng.below(self.counters);
                c.push_str(&format!(
                    "int {name}(struct request *req)
{{
    char snap[128];
    char *copy;
    size_t len;

    {ty}_snapshot({obj}, snap, sizeof snap);
    len = strlen(snap);
    copy = malloc(len + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, snap, len + 1);
    req->kind = (int)(len % 7);
    {p}_count{k}((long)strlen(copy));
    free(copy);
    return (int)({step}(req, {obj}) & 0x7f);
}}
\n"
                ));
            }
        }
        self.code.push_str(&c);
        self.handlers.push(name);
    }

    /// A worker function with its argument struct and a runner that forks it in a loop and
    /// joins it. The first group of a module holds the module's planted race.
    fn add_group(&mut self) {
        let p = self.p.clone();
        let g = self.groups;
        let ta = self.rng.below(self.types.len());
        let tb = self.rng.below(self.types.len());
        let a = self.types[ta].name.clone();
        let b = self.types[tb].name.clone();
        let (_, fa) = self.field(ta);
        let (_, fb) = self.field(tb);
        let route = self.rng.one_in(2);
        let path = format!("/{p}/h{}", self.rng.below(self.handlers.len()));
        let mut w = String::new();
        w.push_str(&format!(
            "struct {p}_warg{g} {{
    int id;
    int iters;
    struct {a} *a;
    struct {b} *b;
    const char *name;
}};

void *{p}_worker{g}(void *arg)
{{
    struct {p}_warg{g} *a = (struct {p}_warg{g} *)arg;
    struct request req;
    long total = 0;
    int i;

    for (i = 0; i < a->iters; i++) {{
        char *scratch = malloc(96);

        if (scratch == NULL)
            break;
        request_init(&req, a->id * 1000 + i, i + {g}, a->name);
        total += {p}_{}(&req);
        {a}_add_{fa}(a->a, 1);
        if ({b}_get_{fb}(a->b) > 1000000)
            total++;
        snprintf(scratch, 96, \"%s#%d\", a->name, i);
        total += (long)strlen(scratch);\n",
            if route { "route" } else { "dispatch" }
        ));
        if self.rng.one_in(2) {
            w.push_str(&format!(
                "        {p}_batch_begin();\n        {p}_batch_total += total;\n        {p}_batch_end();\n"
            ));
        }
        if g == 0 {
            w.push_str(&format!("        {p}_unsafe_hits++;\n"));
        }
        if self.rng.one_in(3) {
            w.push_str(&format!("        total += {p}_query(i);\n"));
        }
        w.push_str(&format!(
            "        request_free(&req);
        free(scratch);
    }}
    stats_add(&server_stats, total);
    return NULL;
}}

void {p}_run_group{g}(int n)
{{
    pthread_t th[{MAX_THREADS}];
    struct {p}_warg{g} args[{MAX_THREADS}];
    int i;

    if (n > {MAX_THREADS})
        n = {MAX_THREADS};
    for (i = 0; i < n; i++) {{
        args[i].id = i;
        args[i].iters = server_iters;
        args[i].a = {a}_shared;
        args[i].b = &{b}_main;
        args[i].name = \"{path}\";
    }}
    for (i = 0; i < n; i++)
        if (pthread_create(&th[i], NULL, {p}_worker{g}, &args[i]) != 0)
            abort();
    for (i = 0; i < n; i++)
        pthread_join(th[i], NULL);
}}
\n"
        ));
        self.workers.push_str(&w);
        self.groups += 1;
    }

    /// Concatenates the sections and adds the handler tables, the module's interface, setup
    /// and run functions.
    fn finish(self) -> String {
        let p = &self.p;
        let mut s = String::new();
        s.push_str(&self.decls);
        s.push_str(&self.helpers);
        s.push_str(&self.code);

        let n = self.handlers.len();
        s.push_str(&format!("handler_fn {p}_handlers[] = {{\n"));
        for h in &self.handlers {
            s.push_str(&format!("    {h},\n"));
        }
        s.push_str(&format!(
            "}};

struct {p}_route_entry {{
    const char *prefix;
    handler_fn fn;
}};

const struct {p}_route_entry {p}_routes[] = {{\n"
        ));
        for (i, h) in self.handlers.iter().enumerate() {
            s.push_str(&format!("    {{ \"/{p}/h{i}\", {h} }},\n"));
        }
        s.push_str(&format!(
            "}};

int {p}_dispatch(struct request *req)
{{
    unsigned k = (unsigned)req->kind % {n}u;

    return {p}_handlers[k](req);
}}

int {p}_route(struct request *req)
{{
    size_t i;

    for (i = 0; i < sizeof {p}_routes / sizeof {p}_routes[0]; i++)
        if (strncmp(req->path, {p}_routes[i].prefix, strlen({p}_routes[i].prefix)) == 0)
            return {p}_routes[i].fn(req);
    return {p}_handlers[0](req);
}}
\n"
        ));

        let t0 = &self.types[0];
        let (_, f0) = t0.fields[0];
        s.push_str(&format!(
            "long {p}_query(long key)
{{
    long v = {p}_read0() + key;

    return v + {t}_get_{f0}({t}_shared);
}}
\n",
            t = t0.name
        ));
        let svc = &self.services[0];
        s.push_str(&format!(
            "long {p}_update(long key, long delta)\n{{\n    long r = {}({}_shared, key + delta);\n\n",
            svc.locked_top, self.types[svc.ty].name
        ));
        if self.chains_down {
            let lower = self
                .lower
                .last()
                .expect("a module that chains down has one below");
            s.push_str(&format!(
                "    if (delta > 0)\n        r += {lower}_update(key, delta - 1);\n"
            ));
        }
        s.push_str("    return r;\n}\n\n");

        s.push_str(&self.workers);
        s.push_str(&self.extra);

        s.push_str(&format!("void {p}_setup(void)\n{{\n"));
        for t in &self.types {
            s.push_str(&format!("    {n}_shared = {n}_new(\"{n}\");\n", n = t.name));
        }
        s.push_str(&format!("}}\n\nvoid {p}_run(int nthreads)\n{{\n"));
        s.push_str(&self.run_hooks);
        for g in 0..self.groups {
            s.push_str(&format!("    {p}_run_group{g}(nthreads);\n"));
        }
        s.push_str("}\n\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `(caller, callee)` module indices of every call a module's file makes to another
    /// module's `update` or `query`, in a program of `modules` modules with layers of `layer`.
    fn cross_module_calls(modules: usize, layer: usize) -> Vec<(usize, usize)> {
        let layout = Layout {
            layer,
            module_lines: 0,
        };
        let files = generate(modules * LINES_PER_FILE, 7, layout, Shape::Server);
        let names: Vec<String> = (0..modules).map(module_name).collect();
        let mut calls = Vec::new();
        for (caller, name) in names.iter().enumerate() {
            let file = if caller == 0 {
                "server.c".to_string()
            } else {
                format!("{name}.c")
            };
            let text = &files
                .iter()
                .find(|(f, _)| *f == file)
                .expect("a file per module")
                .1;
            for (callee, other) in names.iter().enumerate() {
                let called = ["_update(", "_query("].iter().any(|suffix| {
                    text.match_indices(&format!("{other}{suffix}"))
                        .any(|(at, _)| {
                            let before = at.checked_sub(1).map(|k| text.as_bytes()[k]);
                            !before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                        })
                });
                if callee != caller && called {
                    calls.push((caller, callee));
                }
            }
        }
        calls
    }

    /// A module calls into lower modules of its own layer only, so what one module reaches
    /// does not grow as modules are added; with no layers (0) it reaches past them.
    #[test]
    fn modules_call_only_lower_modules_of_their_layer() {
        let layer = 3;
        let calls = cross_module_calls(7, layer);
        assert!(!calls.is_empty());
        for &(caller, callee) in &calls {
            assert!(callee < caller, "module {caller} calls {callee}, above it");
            assert_eq!(
                callee / layer,
                caller / layer,
                "module {caller} calls {callee}"
            );
        }
        let unbounded = cross_module_calls(7, 0);
        assert!(unbounded.iter().any(|&(a, b)| a / layer != b / layer));
    }

    /// The user lines of each module file but `server.c` (which also holds the core and `main`).
    fn module_sizes(files: &[(String, String)]) -> Vec<usize> {
        files
            .iter()
            .filter(|(name, _)| is_analysed(name) && name != "server.c")
            .map(|(_, text)| text.lines().count())
            .collect()
    }

    #[test]
    fn modules_keep_their_size_as_the_program_grows() {
        let small = generate(10_000, 7, Layout::default(), Shape::Forks);
        let large = generate(60_000, 7, Layout::default(), Shape::Forks);
        let (small, large) = (module_sizes(&small), module_sizes(&large));
        assert!(large.len() >= 5 * small.len(), "{small:?} {large:?}");
        let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len() as f64;
        let ratio = mean(&large) / mean(&small);
        assert!((0.85..1.15).contains(&ratio), "{small:?} {large:?}");
        // The older split: one file per LINES_PER_FILE lines, the budget shared among them.
        let by_file = Layout {
            module_lines: 0,
            ..Layout::default()
        };
        let old = module_sizes(&generate(60_000, 7, by_file, Shape::Forks));
        assert!(mean(&old) > 2.0 * mean(&large), "{old:?} {large:?}");
    }

    /// Every shape is found by its name, and `all` is the six shapes it had before the
    /// interpreter and the hubs, so that its figures compare with those measured before.
    #[test]
    fn shapes_are_named_and_all_leaves_the_interpreter_and_the_hubs_out() {
        for shape in Shape::EVERY {
            assert_eq!(Shape::from_name(shape.name()), Some(shape));
        }
        assert_eq!(Shape::All.parts().len(), 6);
        for later in [
            Shape::Interp,
            Shape::Dispatch,
            Shape::Drivers,
            Shape::Spawn,
            Shape::Commands,
        ] {
            assert!(!Shape::All.parts().contains(&later));
            assert!(Shape::EVERY.contains(&later));
        }
    }

    /// The lines of `server.c` from `start` to the first line that is exactly `}` after it.
    fn function_in<'a>(files: &'a [(String, String)], start: &str) -> &'a str {
        let server = &files
            .iter()
            .find(|(n, _)| n == "server.c")
            .expect("server.c")
            .1;
        let from = &server[server.find(start).expect(start)..];
        &from[..from.find("\n}\n").expect("the end of the function")]
    }

    /// Each hub is one place of `server.c` with a part for every module: the engine's switch
    /// has two dozen cases per module, `spawn_tasks` sixteen `pthread_create` calls per module,
    /// the command table and the statistics eight commands and counters per module, and the
    /// pager one call through a file's methods, whatever the number of modules; the program
    /// keeps its size.
    #[test]
    fn the_hubs_grow_with_the_program_and_keep_its_size() {
        for (size, modules) in [(30_000, 6), (60_000, 12)] {
            let dispatch = generate(size, 7, Layout::default(), Shape::Dispatch);
            assert_eq!(
                dispatch.iter().filter(|(n, _)| is_analysed(n)).count(),
                modules
            );
            let engine = function_in(&dispatch, "long engine_exec(");
            assert_eq!(engine.matches("        case ").count(), 24 * modules);
            let spawn = generate(size, 7, Layout::default(), Shape::Spawn);
            let tasks = function_in(&spawn, "void spawn_tasks(void)");
            assert_eq!(tasks.matches("pthread_create(").count(), 16 * modules);
            let drivers = generate(size, 7, Layout::default(), Shape::Drivers);
            let pager = function_in(&drivers, "int pager_read(");
            assert_eq!(pager.matches("->methods->read(").count(), 1);
            let methods: usize = drivers
                .iter()
                .map(|(_, text)| text.matches("_io_methods = {").count())
                .sum();
            assert_eq!(methods, modules);
            let commands = generate(size, 7, Layout::default(), Shape::Commands);
            let table = function_in(&commands, "static long conn_dispatch(");
            assert_eq!(table.matches("    case ").count(), 8 * modules);
            let aggregate = function_in(&commands, "static void stats_aggregate(");
            assert_eq!(aggregate.matches("_hits += ").count(), 8 * modules);
            for files in [&dispatch, &spawn, &drivers, &commands] {
                // Preprocessed lines, as the generator counts them: each `.c` file with the
                // system headers and `common.h`.
                let header = preprocessed_lines(&files[0].1);
                let lines: usize = (files.iter().skip(1))
                    .map(|(_, text)| SYSTEM_HEADER_LINES + header + preprocessed_lines(text))
                    .sum();
                let ratio = lines as f64 / size as f64;
                assert!((0.9..1.1).contains(&ratio), "{lines} lines for {size}");
            }
        }
    }

    /// In the interpreter shape, `main` registers every module's table before it starts a
    /// thread, and no function of a module calls back into the dispatcher holding a lock.
    #[test]
    fn the_interpreter_registers_first_and_calls_holding_no_lock() {
        let files = generate(30_000, 7, Layout::default(), Shape::Interp);
        let server = &files
            .iter()
            .find(|(n, _)| n == "server.c")
            .expect("server.c")
            .1;
        let main = &server[server.find("int main(").expect("main")..];
        let first_fork = main.find("pthread_create(").expect("a fork in main");
        let modules = files.iter().filter(|(n, _)| is_analysed(n)).count();
        assert!(modules >= 3, "{modules} modules");
        assert_eq!(main[..first_fork].matches("_vm_init();").count(), modules);
        let mut ops = 0;
        for (name, text) in files.iter().filter(|(n, _)| is_analysed(n)) {
            let mut held = 0;
            let mut in_op = false;
            for line in text.lines() {
                if line.starts_with("static int ") && line.contains("_op") {
                    in_op = true;
                    ops += 1;
                } else if line == "}" {
                    assert!(
                        !in_op || held == 0,
                        "{name}: a lock is held at the end of an op"
                    );
                    in_op = false;
                }
                if !in_op {
                    continue;
                }
                held += line.matches("pthread_mutex_lock(").count();
                held -= line.matches("pthread_mutex_unlock(").count();
                if line.contains("vm_call") {
                    assert_eq!(held, 0, "{name}: a call into the dispatcher holding a lock");
                }
            }
        }
        assert!(ops > 10 * modules, "{ops} functions in {modules} modules");
    }

    #[test]
    fn the_10k_server_is_the_same_with_either_split() {
        let by_file = Layout {
            module_lines: 0,
            ..Layout::default()
        };
        assert_eq!(
            generate(10_000, 7, Layout::default(), Shape::Server),
            generate(10_000, 7, by_file, Shape::Server)
        );
    }
}
