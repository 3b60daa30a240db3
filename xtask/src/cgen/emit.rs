//! Writes a [`Plan`] as C: `main.c` (every idiom locksmith is given) and `lib.c` (the library
//! locksmith is not given). Each access to shared memory is alone on its line, so that a line
//! names one access for the comparison with ThreadSanitizer. Globals and utility functions are
//! written only when the code mentions them, and every variable or parameter that may go unused
//! is voided, so that the program compiles without warnings under `-Wall -Wextra`.

use std::collections::BTreeSet;

use super::idioms;
use super::plan::{
    Access, ArgKind, Cond, Event, Field, Idx, Loc, Lock, ObjRef, Op, Plan, Shape, Target, Worker,
    ARRAY_LEN,
};

/// The C text of a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sources {
    pub main_c: String,
    /// Empty when the program uses no library idiom.
    pub lib_c: String,
}

/// The types both translation units share.
const PRELUDE: &str = "\
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct obj;
typedef unsigned (*handler_fn)(struct obj *, unsigned);

struct inner {
    unsigned a;
    unsigned b;
};

struct obj {
    pthread_mutex_t lock;
    unsigned count;
    struct inner in;
    pthread_mutex_t locks[4];
    unsigned slots[4];
    handler_fn cb;
};

struct stats {
    unsigned hits;
    unsigned total;
};

struct targ {
    struct obj *o;
    unsigned id;
};
";

/// The library's interface, as `main.c` declares it.
const LIB_PROTOTYPES: &str = "\
/* Defined in lib.c, which locksmith is not given. */
struct stats *lib_stats(void);
void lib_store(void *p);
void *lib_load(void);
unsigned lib_apply(handler_fn cb, struct obj *o, unsigned v);
void lib_add(unsigned *p, unsigned v);
void lib_tick(void);
";

/// The library's definitions: a getter of a struct of its own, a slot that keeps a pointer, a
/// function calling back, one writing through its argument, and a counter of its own.
const LIB_BODY: &str = "\
static struct stats lib_g;
static void *lib_slot;
static unsigned lib_ticks;

struct stats *lib_stats(void)
{
    return &lib_g;
}

void lib_store(void *p)
{
    lib_slot = p;
}

void *lib_load(void)
{
    return lib_slot;
}

unsigned lib_apply(handler_fn cb, struct obj *o, unsigned v)
{
    return cb(o, v);
}

void lib_add(unsigned *p, unsigned v)
{
    *p += v;
}

void lib_tick(void)
{
    lib_ticks++;
}
";

/// Utility functions, each written only if the program mentions it (`main` always allocates its
/// object with `obj_new`). `ALLOC(p)` stands for the allocation of `*p`: through `xmalloc`, or
/// `malloc` and its check inline.
const UTILITIES: &[(&str, &str)] = &[
    (
        "xmalloc",
        "void *xmalloc(size_t n)\n{\n    void *p = malloc(n);\n    if (p == NULL)\n        abort();\n    return p;\n}\n",
    ),
    (
        "obj_init",
        "void obj_init(struct obj *p)\n{\n    pthread_mutex_init(&p->lock, NULL);\n    for (unsigned k = 0; k < 4u; k++) {\n        pthread_mutex_init(&p->locks[k], NULL);\n        p->slots[k] = 0;\n    }\n    p->count = 0;\n    p->in.a = 0;\n    p->in.b = 0;\n    p->cb = NULL;\n}\n",
    ),
    (
        "obj_new",
        "struct obj *obj_new(void)\n{\n    struct obj *p = ALLOC(p);\n    obj_init(p);\n    return p;\n}\n",
    ),
    (
        "targ_new",
        "struct targ *targ_new(struct obj *o, unsigned id)\n{\n    struct targ *t = ALLOC(t);\n    t->o = o;\n    t->id = id;\n    return t;\n}\n",
    ),
    (
        "lock_m",
        "void lock_m(pthread_mutex_t *m)\n{\n    pthread_mutex_lock(m);\n}\n",
    ),
    (
        "unlock_m",
        "void unlock_m(pthread_mutex_t *m)\n{\n    pthread_mutex_unlock(m);\n}\n",
    ),
    (
        "obj_lock",
        "void obj_lock(struct obj *p)\n{\n    pthread_mutex_lock(&p->lock);\n}\n",
    ),
    (
        "obj_unlock",
        "void obj_unlock(struct obj *p)\n{\n    pthread_mutex_unlock(&p->lock);\n}\n",
    ),
    (
        "spawn",
        "void spawn(pthread_t *t, void *(*fn)(void *), void *arg)\n{\n    if (pthread_create(t, NULL, fn, arg) != 0)\n        abort();\n}\n",
    ),
];

/// Global variables, each written only if the program mentions it.
const GLOBALS: &[(&str, &str)] = &[
    ("m0", "pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;"),
    ("m1", "pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;"),
    ("m2", "pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;"),
    (
        "glocks",
        "pthread_mutex_t glocks[4] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,\n                               PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };",
    ),
    ("g0", "unsigned g0;"),
    ("g1", "unsigned g1;"),
    ("g2", "unsigned g2;"),
    ("garr", "unsigned garr[4];"),
    ("gobj", "struct obj gobj;"),
    ("gptr", "struct obj *gptr;"),
    ("lockflag", "unsigned lockflag;"),
];

/// Whether `word` occurs in `text` as a whole C identifier.
pub fn mentions(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// Lines at an indentation depth.
#[derive(Default)]
struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }
}

/// Writes the ops of one function: the names its context gives the iteration and the stripe,
/// and the variables the written code uses.
struct Body<'p> {
    plan: &'p Plan,
    iter: &'static str,
    stripe: &'static str,
    used: BTreeSet<&'static str>,
}

impl<'p> Body<'p> {
    fn new(plan: &'p Plan, iter: &'static str, stripe: &'static str) -> Body<'p> {
        Body {
            plan,
            iter,
            stripe,
            used: BTreeSet::new(),
        }
    }

    fn iter(&mut self) -> &'static str {
        self.used.insert(self.iter);
        self.iter
    }

    fn obj(&mut self) -> &'static str {
        self.used.insert("o");
        "o"
    }

    fn idx(&mut self, i: Idx) -> String {
        match i {
            Idx::Const(c) => c.to_string(),
            Idx::Stripe => {
                self.used.insert(self.stripe);
                format!("{} % {ARRAY_LEN}u", self.stripe)
            }
        }
    }

    fn field(&mut self, f: Field) -> String {
        match f {
            Field::Count => "count".into(),
            Field::InnerA => "in.a".into(),
            Field::InnerB => "in.b".into(),
            Field::Slot(i) => format!("slots[{}]", self.idx(i)),
        }
    }

    fn loc(&mut self, l: Loc) -> String {
        match l {
            Loc::Global(k) => format!("g{k}"),
            Loc::GlobalArr(i) => format!("garr[{}]", self.idx(i)),
            Loc::Gobj(f) => format!("gobj.{}", self.field(f)),
            Loc::Obj(f) => format!("{}->{}", self.obj(), self.field(f)),
            Loc::LibStats(true) => "lib_stats()->hits".into(),
            Loc::LibStats(false) => "lib_stats()->total".into(),
        }
    }

    fn lock(&mut self, l: Lock) -> String {
        match l {
            Lock::Global(k) => format!("&m{k}"),
            Lock::GlobalArr(i) => format!("&glocks[{}]", self.idx(i)),
            Lock::Gobj => "&gobj.lock".into(),
            Lock::GobjArr(i) => format!("&gobj.locks[{}]", self.idx(i)),
            Lock::Obj => format!("&{}->lock", self.obj()),
            Lock::ObjArr(i) => format!("&{}->locks[{}]", self.obj(), self.idx(i)),
        }
    }

    fn ops(&mut self, w: &mut Writer, ops: &[Op]) {
        for op in ops {
            self.op(w, op);
        }
    }

    fn op(&mut self, w: &mut Writer, op: &Op) {
        match op {
            Op::Access(loc, access) => {
                let l = self.loc(*loc);
                let text = match access {
                    Access::Read => {
                        self.used.insert("sum");
                        format!("sum += {l};")
                    }
                    Access::Increment => format!("{l}++;"),
                    Access::Add => format!("{l} += {};", self.iter()),
                    Access::Assign => format!("{l} = {};", self.iter()),
                };
                w.line(&text);
            }
            Op::Locked {
                lock,
                shape,
                body,
                alt,
            } => self.section(w, *lock, *shape, body, alt),
            Op::Call(target) => {
                self.used.insert("sum");
                let (o, i) = (self.obj(), self.iter());
                let call = match target {
                    Target::Helper {
                        index,
                        through_library: false,
                    } => format!("h{index}({o}, {i})"),
                    Target::Helper {
                        index,
                        through_library: true,
                    } => format!("lib_apply(h{index}, {o}, {i})"),
                    Target::Table => {
                        let n = self.plan.table.as_ref().map_or(1, |(_, m)| m.len());
                        format!("handlers[{i} % {n}u]({o}, {i})")
                    }
                    Target::Callback => format!("{o}->cb({o}, {i})"),
                };
                w.line(&format!("sum += {call};"));
            }
            Op::LibAdd(loc) => {
                let l = self.loc(*loc);
                let i = self.iter();
                w.line(&format!("lib_add(&{l}, {i});"));
            }
            Op::LibTick => w.line("lib_tick();"),
        }
    }

    fn section(&mut self, w: &mut Writer, lock: Lock, shape: Shape, body: &[Op], alt: &[Op]) {
        let l = self.lock(lock);
        let (acquire, release) = match shape {
            // An object's own lock has wrappers that take the object.
            Shape::Wrapper if lock == Lock::Obj => {
                let o = self.obj();
                (format!("obj_lock({o});"), format!("obj_unlock({o});"))
            }
            Shape::Wrapper => (format!("lock_m({l});"), format!("unlock_m({l});")),
            _ => (
                format!("pthread_mutex_lock({l});"),
                format!("pthread_mutex_unlock({l});"),
            ),
        };
        match shape {
            Shape::Direct | Shape::Wrapper => {
                w.line(&acquire);
                self.ops(w, body);
                w.line(&release);
            }
            Shape::Cond(c) => {
                let c = match c {
                    Cond::Parity => format!("{} & 1u", self.iter()),
                    Cond::Flag => "lockflag".to_string(),
                    Cond::Always => format!("{} < 100000u", self.iter()),
                };
                w.line(&format!("if ({c}) {acquire}"));
                self.ops(w, body);
                w.line(&format!("if ({c}) {release}"));
            }
            Shape::Branches => {
                let i = self.iter();
                w.line(&format!("if ({i} & 1u) {{"));
                w.depth += 1;
                w.line(&acquire);
                self.ops(w, body);
                w.line(&release);
                w.depth -= 1;
                w.line("} else {");
                w.depth += 1;
                w.line(&acquire);
                self.ops(w, alt);
                w.line(&release);
                w.depth -= 1;
                w.line("}");
            }
            Shape::Try => {
                w.line(&format!("if (pthread_mutex_trylock({l}) == 0) {{"));
                w.depth += 1;
                self.ops(w, body);
                w.line(&format!("pthread_mutex_unlock({l});"));
                w.depth -= 1;
                w.line("}");
            }
        }
    }
}

/// The C expression for an object a thread is given.
fn obj_ref(r: ObjRef) -> &'static str {
    match r {
        ObjRef::Main => "o",
        ObjRef::Second => "o2",
        ObjRef::Global => "&gobj",
    }
}

fn helper(plan: &Plan, k: usize, out: &mut String) {
    let mut b = Body::new(plan, "v", "v");
    let mut w = Writer {
        depth: 1,
        ..Writer::default()
    };
    b.ops(&mut w, &plan.helpers[k].body);
    out.push_str(&format!("unsigned h{k}(struct obj *o, unsigned v)\n{{\n"));
    for var in ["o", "v"] {
        if !b.used.contains(var) {
            out.push_str(&format!("    (void){var};\n"));
        }
    }
    let sum = b.used.contains("sum");
    if sum {
        out.push_str("    unsigned sum = 0;\n");
    }
    out.push_str(&w.out);
    out.push_str(if sum {
        "    return sum;\n}\n\n"
    } else {
        "    return 0;\n}\n\n"
    });
}

fn worker(plan: &Plan, k: usize, wk: &Worker, out: &mut String) {
    let stripe = if matches!(wk.arg, ArgKind::Obj(_)) {
        "i"
    } else {
        "id"
    };
    let mut b = Body::new(plan, "i", stripe);
    let mut w = Writer {
        depth: 2,
        ..Writer::default()
    };
    b.ops(&mut w, &wk.body);
    let (o, id, sum) = (
        b.used.contains("o"),
        b.used.contains("id"),
        b.used.contains("sum"),
    );
    out.push_str(&format!("void *worker{k}(void *arg)\n{{\n"));
    let mut prologue = Vec::new();
    match wk.arg {
        ArgKind::Obj(_) if o => prologue.push("struct obj *o = arg;"),
        ArgKind::Targ { heap, .. } if o || id || heap => {
            prologue.push("struct targ *t = arg;");
            if o {
                prologue.push("struct obj *o = t->o;");
            }
            if id {
                prologue.push("unsigned id = t->id;");
            }
        }
        ArgKind::Int | ArgKind::Lib if o || id => {
            if id {
                prologue.push("unsigned id = (unsigned)(uintptr_t)arg;");
            } else {
                prologue.push("(void)arg;");
            }
            if o && wk.arg == ArgKind::Int {
                prologue.push("struct obj *o = gptr;");
            } else if o {
                prologue.push("struct obj *o = lib_load();");
            }
        }
        _ => prologue.push("(void)arg;"),
    }
    if sum {
        prologue.push("unsigned sum = 0;");
    }
    for p in prologue {
        out.push_str(&format!("    {p}\n"));
    }
    out.push_str(&format!(
        "    for (unsigned i = 0; i < {}u; i++) {{\n",
        wk.iterations
    ));
    out.push_str(&w.out);
    out.push_str("    }\n");
    if matches!(wk.arg, ArgKind::Targ { heap: true, .. }) {
        out.push_str("    free(t);\n");
    }
    out.push_str(if sum {
        "    return (void *)(uintptr_t)sum;\n}\n\n"
    } else {
        "    return NULL;\n}\n\n"
    });
}

/// Writes `main`'s creation of group `g`'s threads.
fn create(plan: &Plan, g: usize, w: &mut Writer) {
    let group = &plan.groups[g];
    let start = if group.through_pointer {
        format!("start{g}")
    } else {
        format!("worker{}", group.worker)
    };
    let single = group.count == 1;
    let (th, id, slot) = if single {
        (format!("&th{g}"), format!("{g}u"), "0")
    } else {
        (format!("&th{g}[k]"), "k".to_string(), "k")
    };
    if !single {
        w.line(&format!(
            "for (unsigned k = 0; k < {}u; k++) {{",
            group.count
        ));
        w.depth += 1;
    }
    let arg = match plan.workers[group.worker].arg {
        ArgKind::Obj(r) => obj_ref(r).to_string(),
        ArgKind::Targ { obj, heap: true } => format!("targ_new({}, {id})", obj_ref(obj)),
        ArgKind::Targ { obj, heap: false } => {
            w.line(&format!("targs{g}[{slot}].o = {};", obj_ref(obj)));
            w.line(&format!("targs{g}[{slot}].id = {id};"));
            format!("&targs{g}[{slot}]")
        }
        ArgKind::Int | ArgKind::Lib => format!("(void *)(uintptr_t){id}"),
    };
    if group.through_spawn {
        w.line(&format!("spawn({th}, {start}, {arg});"));
    } else {
        w.line(&format!(
            "if (pthread_create({th}, NULL, {start}, {arg}) != 0)"
        ));
        w.line("    abort();");
    }
    if !single {
        w.depth -= 1;
        w.line("}");
    }
}

/// Writes `main`'s join of group `g`'s threads: one join, or a join loop.
fn join(plan: &Plan, g: usize, w: &mut Writer) {
    let count = plan.groups[g].count;
    if count == 1 {
        w.line(&format!("pthread_join(th{g}, NULL);"));
    } else {
        w.line(&format!("for (unsigned k = 0; k < {count}u; k++)"));
        w.line(&format!("    pthread_join(th{g}[k], NULL);"));
    }
}

/// `main`'s steps after its setup: the writes before any thread starts, the timeline, and the
/// final reads after every join.
fn main_steps(plan: &Plan) -> String {
    let mut w = Writer {
        depth: 1,
        ..Writer::default()
    };
    // Outside the work loops there is no iteration: writes store 1 and the stripe is slot 0.
    let mut top = Body::new(plan, "1u", "0u");
    for loc in &plan.init {
        let l = top.loc(*loc);
        w.line(&format!("{l} = 1u;"));
    }
    for event in &plan.timeline {
        match event {
            Event::Create(g) => create(plan, *g, &mut w),
            Event::Join(g) => join(plan, *g, &mut w),
            Event::Work(iterations, ops) => {
                w.line(&format!("for (unsigned i = 0; i < {iterations}u; i++) {{"));
                w.depth += 1;
                Body::new(plan, "i", "i").ops(&mut w, ops);
                w.depth -= 1;
                w.line("}");
            }
            Event::Start(n) | Event::Stop(n) => {
                let parts = idioms::emit(&plan.idioms[*n], *n);
                let lines = match event {
                    Event::Start(_) => parts.start,
                    _ => parts.stop,
                };
                for l in lines {
                    w.line(&l);
                }
            }
        }
    }
    let mut args = vec!["sum".to_string()];
    args.extend(plan.pool.iter().map(|&(l, _)| top.loc(l)));
    let format = vec!["%u"; args.len()].join(" ");
    w.line(&format!("printf(\"{format}\\n\", {});", args.join(", ")));
    w.out
}

/// `main`: declarations and setup (as far as the rest of the program needs them), the steps,
/// and the frees.
fn main_fn(plan: &Plan, rest: &str, out: &mut String) {
    let steps = main_steps(plan);
    let all = format!("{rest}{steps}");
    let second = mentions(&steps, "o2");
    let mut w = Writer {
        depth: 1,
        ..Writer::default()
    };
    w.line("struct obj *o = obj_new();");
    if second {
        w.line("struct obj *o2 = obj_new();");
    }
    w.line("unsigned sum = 0;");
    for (g, group) in plan.groups.iter().enumerate() {
        if group.count == 1 {
            w.line(&format!("pthread_t th{g};"));
        } else {
            w.line(&format!("pthread_t th{g}[{}];", group.count));
        }
        if let ArgKind::Targ { heap: false, .. } = plan.workers[group.worker].arg {
            w.line(&format!("struct targ targs{g}[{}];", group.count));
        }
        if group.through_pointer {
            w.line(&format!(
                "void *(*start{g})(void *) = worker{};",
                group.worker
            ));
        }
    }
    for (n, idiom) in plan.idioms.iter().enumerate() {
        for d in idioms::emit(idiom, n).decls {
            w.line(&d);
        }
    }
    if mentions(&all, "gobj") {
        w.line("obj_init(&gobj);");
    }
    if let Some(k) = plan.callback {
        let mut objects = vec!["o->cb"];
        if second {
            objects.push("o2->cb");
        }
        if mentions(&all, "gobj") {
            objects.push("gobj.cb");
        }
        for field in objects {
            w.line(&format!("{field} = h{k};"));
        }
    }
    if mentions(&all, "gptr") {
        w.line("gptr = o;");
    }
    if mentions(&all, "lockflag") {
        w.line("lockflag = 1u;");
    }
    if mentions(&all, "lib_load") {
        w.line("lib_store(o);");
    }
    out.push_str("int main(void)\n{\n");
    out.push_str(&w.out);
    out.push_str(&steps);
    if second {
        out.push_str("    free(o2);\n");
    }
    out.push_str("    free(o);\n    return 0;\n}\n");
}

/// Expands `ALLOC(p)` in a utility: `xmalloc(sizeof *p)`, or `malloc(sizeof *p)` followed by
/// the check `xmalloc` would make.
fn allocation(text: &str, wrapper: bool) -> String {
    let Some(at) = text.find("ALLOC(") else {
        return text.to_string();
    };
    let var = &text[at + 6..at + 7];
    if wrapper {
        return text.replace(&format!("ALLOC({var})"), &format!("xmalloc(sizeof *{var})"));
    }
    let check = format!(";\n    if ({var} == NULL)\n        abort();");
    let end = at + text[at..].find(';').expect("the allocation ends its line");
    format!(
        "{}malloc(sizeof *{var}){check}{}",
        &text[..at],
        &text[end + 1..]
    )
}

/// Writes `plan` as C; `header` is a comment line put at the top of both files.
pub fn emit(plan: &Plan, header: &str) -> Sources {
    let mut funcs = String::new();
    for k in 0..plan.helpers.len() {
        funcs.push_str(&format!("unsigned h{k}(struct obj *o, unsigned v);\n"));
    }
    if let Some((_, members)) = &plan.table {
        let names: Vec<String> = members.iter().map(|k| format!("h{k}")).collect();
        funcs.push_str(&format!(
            "\nhandler_fn const handlers[{}] = {{ {} }};\n",
            names.len(),
            names.join(", ")
        ));
    }
    if !funcs.is_empty() {
        funcs.push('\n');
    }
    for k in 0..plan.helpers.len() {
        helper(plan, k, &mut funcs);
    }
    for (k, wk) in plan.workers.iter().enumerate() {
        worker(plan, k, wk, &mut funcs);
    }
    let parts: Vec<idioms::Parts> = (plan.idioms.iter().enumerate())
        .map(|(n, idiom)| idioms::emit(idiom, n))
        .collect();
    for p in &parts {
        funcs.push_str(&p.functions);
    }
    let rest = funcs.clone();
    main_fn(plan, &rest, &mut funcs);

    let mut always = vec!["obj_init", "obj_new"];
    if plan.wrapper {
        always.push("xmalloc");
    }
    let utilities: Vec<String> = UTILITIES
        .iter()
        .filter(|(name, _)| always.contains(name) || mentions(&funcs, name))
        .map(|&(_, text)| allocation(text, plan.wrapper))
        .collect();
    let utilities = utilities.join("\n");
    let code = format!("{utilities}{funcs}");
    let globals: Vec<&str> = GLOBALS
        .iter()
        .filter(|(name, _)| mentions(&code, name))
        .map(|&(_, text)| text)
        .collect();

    let mut main_c = format!("/* {header} */\n{PRELUDE}\n");
    if plan.library {
        main_c.push_str(LIB_PROTOTYPES);
        main_c.push('\n');
    }
    if !globals.is_empty() {
        main_c.push_str(&globals.join("\n"));
        main_c.push_str("\n\n");
    }
    for p in &parts {
        main_c.push_str(&p.globals);
        main_c.push('\n');
    }
    main_c.push_str(&utilities);
    main_c.push('\n');
    main_c.push_str(&funcs);
    let lib_c = if plan.library {
        let extra: String = parts.iter().map(|p| format!("\n{}", p.lib)).collect();
        format!("/* {header} */\n{PRELUDE}\n{LIB_BODY}{extra}")
    } else {
        String::new()
    };
    Sources { main_c, lib_c }
}
