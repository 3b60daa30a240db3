//! Which library stubs, and functions of the program, keep none of their pointer arguments
//! (`c_frontend::analyses::stub_captures`): one that only reads or writes through a parameter,
//! tests it, or hands it to another such function keeps nothing; one that returns it, stores
//! it, takes its address, or hands it to one that does may keep it.

use c_frontend::analyses::stub_captures::non_capturing_functions;
use c_frontend::ir::{Origin, Program};
use c_frontend::lower::Lowerer;
use c_frontend::syntax::srcmap::{FileTable, SourceMap};

/// Lowers `stubs` as the library model's stub unit.
fn lower_stubs(stubs: &str) -> Program {
    lower_as(stubs, Origin::Stub)
}

/// Lowers `text` as a unit of the given origin.
fn lower_as(stubs: &str, origin: Origin) -> Program {
    let text = format!(
        "void __locksmith_write(const void *p); void __locksmith_read(const void *p);\n{stubs}"
    );
    let mut files = FileTable::new();
    let mut lw = Lowerer::new();
    let parse =
        lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), text.clone())
            .unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let map = SourceMap::new(&text, "stubs.c", &mut files);
    lw.add_unit(&parse.unit, &map, origin);
    lw.finish(files, Vec::new())
}

fn keeping_nothing(stubs: &str) -> Vec<String> {
    names(&lower_stubs(stubs))
}

/// The functions of `p` that keep nothing, by name.
fn names(p: &Program) -> Vec<String> {
    non_capturing_functions(p)
        .into_iter()
        .map(|f| p.funcs[f].name.clone())
        .collect()
}

#[test]
fn reading_writing_and_testing_keep_nothing() {
    let names = keeping_nothing(
        "int fill(int *p, int *len) { if (p != 0) { __locksmith_read(len); __locksmith_write(p); } return *len; }",
    );
    assert_eq!(names, ["fill"]);
}

#[test]
fn returning_or_storing_a_parameter_may_keep_it() {
    let names = keeping_nothing(
        "int *kept; int *give_back(int *p) { return p + 1; } void stash(int *p) { kept = p; }\n\
         void stash_member(int **out, int *p) { *out = p; }",
    );
    assert!(names.is_empty(), "{names:?}");
}

/// A pointer taken out of the variadic arguments is one the stub was given: reading through
/// it keeps nothing, storing it may keep it. (`va_start`, a call the model does not know, is
/// left out: it is handed the last parameter, which would make both stubs keep it.)
#[test]
fn variadic_pointers_count_as_given() {
    let names = keeping_nothing(
        "typedef __builtin_va_list va_list; void *kept;\n\
         int scan(int n, ...) { va_list ap; __locksmith_write(__builtin_va_arg(ap, void *)); return n; }\n\
         int keep(int n, ...) { va_list ap; kept = __builtin_va_arg(ap, void *); return n; }",
    );
    assert_eq!(names, ["scan"]);
}

#[test]
fn handing_on_keeps_what_the_callee_keeps() {
    let names = keeping_nothing(
        "int *kept; void fill(int *p) { __locksmith_write(p); } void stash(int *p) { kept = p; }\n\
         void through_fill(int *p) { fill(p); } void through_stash(int *p) { stash(p); }",
    );
    assert_eq!(names, ["fill", "through_fill"]);
}

/// The verdict does not depend on the order functions are defined in: a dispatcher defined
/// before the helpers it calls, a chain calling down to one that keeps its argument, and a
/// cycle of recursion that keeps nothing.
#[test]
fn callers_defined_before_their_callees_are_decided_alike() {
    let names = keeping_nothing(
        "int *kept; void first(int *p); void second(int *p); void keep(int *p);
         void fill(int *p); void even(int *p, int n); void odd(int *p, int n);
         void dispatch(int *p) { fill(p); fill(p); even(p, 3); }
         void chain(int *p) { first(p); }
         void first(int *p) { second(p); }
         void second(int *p) { keep(p); }
         void keep(int *p) { kept = p; }
         void fill(int *p) { __locksmith_write(p); }
         void even(int *p, int n) { if (n) odd(p, n - 1); }
         void odd(int *p, int n) { if (n) even(p, n - 1); __locksmith_read(p); }",
    );
    assert_eq!(names, ["fill", "even", "odd", "dispatch"]);
}

/// The program's own functions are found alike: a helper that only reads through its
/// argument keeps nothing, one that keeps it in a global does not, and neither does one whose
/// parameter's own address is taken (a copy of it may then go anywhere).
#[test]
fn functions_of_the_program_keep_nothing_alike() {
    let p = lower_as(
        "typedef unsigned long size_t; void *memcpy(void *, const void *, size_t);\n\
         char *last; char **where;\n\
         long checksum(const char *s) { return s[0] + s[1]; }\n\
         void remember(char *s) { last = s; }\n\
         void copied(char *s) { memcpy(&last, &s, sizeof s); }",
        Origin::User,
    );
    assert_eq!(names(&p), ["checksum"]);
}

/// A pointer a function makes from its parameter and holds in a local of its own (`strchr`'s
/// result, `p + 1`) stands for the parameter: tested or read through, it keeps nothing; stored,
/// returned or handed to a function that keeps it, it keeps the parameter. A comparison of it
/// is a truth value, not a pointer.
#[test]
fn locals_made_from_a_parameter_stand_for_it() {
    let names = keeping_nothing(
        "char *find(const char *s) { __locksmith_read(s); return (char *)s; }\n\
         int *kept;\n\
         int has(const char *s) { const char *p = find(s); return p != 0; }\n\
         int next(int *a) { int *q = a + 1; __locksmith_read(q); return *q; }\n\
         int stores(int *a) { int *q = a + 1; kept = q; return 0; }\n\
         char *returns(const char *s) { char *p = find(s); return p; }\n\
         void hands(int *a) { int *q = a; stores(q); }",
    );
    assert_eq!(names, ["has", "next"]);
}

/// A `va_list` filled by `va_start` holds the variadic arguments: handing it to a function
/// that reads through it keeps nothing, copying it somewhere kept keeps them.
#[test]
fn a_va_list_stands_for_the_variadic_arguments() {
    let prelude = "typedef void *va_list;\n\
         void __builtin_va_start(va_list, ...); void __builtin_va_end(va_list);\n\
         void __builtin_va_copy(va_list, va_list);\n\
         void reads(const char *fmt, va_list ap) { __locksmith_read(fmt); __locksmith_read(__builtin_va_arg(ap, char *)); }\n";
    let quiet = format!(
        "{prelude}void note(const char *fmt, ...) {{ va_list ap; __builtin_va_start(ap, fmt); reads(fmt, ap); __builtin_va_end(ap); }}"
    );
    let p = lower_as(&quiet, Origin::User);
    assert!(names(&p).contains(&"note".to_string()), "{:?}", names(&p));
    let keeping = format!(
        "{prelude}va_list saved;\n\
         void note(const char *fmt, ...) {{ va_list ap; __builtin_va_start(ap, fmt); __builtin_va_copy(saved, ap); }}"
    );
    let p = lower_as(&keeping, Origin::User);
    assert!(!names(&p).contains(&"note".to_string()), "{:?}", names(&p));
}

/// A lock, condition or semaphore call keeps no copy of the address it is given (the library
/// model's rows say so), so a thread library's wrappers that only take, release or wait keep
/// nothing either; a wrapper that also stores its lock keeps it.
#[test]
fn lock_wrappers_keep_nothing() {
    let p = lower_as(
        "typedef struct { int w; } pthread_mutex_t; typedef struct { int w; } pthread_cond_t;\n\
         int pthread_mutex_lock(pthread_mutex_t *m); int pthread_mutex_unlock(pthread_mutex_t *m);\n\
         int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);\n\
         struct gate { pthread_mutex_t mu; pthread_cond_t cv; long val; };\n\
         struct gate *last;\n\
         void enter(struct gate *g) { pthread_mutex_lock(&g->mu); }\n\
         void await(struct gate *g, long v) { while (g->val != v) pthread_cond_wait(&g->cv, &g->mu); }\n\
         void enter_and_keep(struct gate *g) { pthread_mutex_lock(&g->mu); last = g; }",
        Origin::User,
    );
    assert_eq!(names(&p), ["enter", "await"]);
}
