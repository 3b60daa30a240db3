//! Thread starters copied per start routine (`c_frontend::specialise`): each list of function
//! designators a starter's direct calls pass gets its own copy (the starter serves the first),
//! whose forks start a copy of the trampoline; other calls keep calling the starter.

mod support;

use c_frontend::ir::{FuncId, Operand, Program, VarKind};
use c_frontend::specialise::{specialise, MAX_COPIES, MAX_STATEMENTS};
use support::{defined, lower};

const LIBRARY: &str = "
typedef unsigned long pthread_t;
int pthread_create(pthread_t *t, const void *attr, void *(*start)(void *), void *arg);
void *malloc(unsigned long size);
struct capsule { void (*probe)(void *); void *payload; };
static void *ignition(void *arg) { struct capsule *c = arg; c->probe(c->payload); return 0; }
static void launch(void (*probe)(void *), void *payload) {
    pthread_t t;
    struct capsule *c = malloc(sizeof *c);
    c->probe = probe;
    c->payload = payload;
    pthread_create(&t, 0, ignition, c);
}
static void *plain(void *arg) { return arg; }
static void spawn(void *(*start)(void *)) { pthread_t t; pthread_create(&t, 0, start, 0); }
static void fixed(void (*unused)(void *)) { pthread_t t; pthread_create(&t, 0, plain, 0); }
void a(void *x) { (void)x; }
void b(void *x) { (void)x; }
";

/// The functions `main` calls directly, in program order, once starters are copied.
fn main_calls(p: &Program) -> Vec<FuncId> {
    let main = defined(p, "main");
    p.funcs[main]
        .direct_calls()
        .map(|(_, _, callee, _)| callee)
        .collect()
}

/// The start routines of the forks in `f`.
fn started(p: &Program, f: FuncId) -> Vec<FuncId> {
    p.funcs[f]
        .direct_calls()
        .filter(|&(_, _, g, _)| p.funcs[g].name == "pthread_create")
        .filter_map(|(_, _, _, args)| match args[2].without_casts() {
            Operand::Func(t) => Some(*t),
            _ => None,
        })
        .collect()
}

#[test]
fn each_routine_launched_gets_its_own_launch_and_trampoline() {
    let mut p = lower(&format!(
        "{LIBRARY} int main(void) {{ launch(a, 0); launch(b, 0); launch(&a, 0); return 0; }}"
    ));
    let launch = defined(&p, "launch");
    let ignition = defined(&p, "ignition");
    assert_eq!(specialise(&mut p), 1);
    let calls = main_calls(&p);
    assert_eq!(calls[0], launch, "the starter serves the first list");
    assert_ne!(calls[1], launch);
    assert_eq!(calls[2], launch, "`&a` is the designator `a`");
    let copy = calls[1];
    assert_eq!(p.funcs[copy].name, "launch");
    assert_eq!(p.original(copy), launch);
    assert_eq!(started(&p, launch), [ignition]);
    let [trampoline] = started(&p, copy)[..] else {
        panic!("one fork in the copy")
    };
    assert_ne!(trampoline, ignition);
    assert_eq!(p.original(trampoline), ignition);
    // The copies' variables are their own.
    for (f, original) in [(copy, launch), (trampoline, ignition)] {
        for (k, (&v, &w)) in p.funcs[f]
            .params
            .iter()
            .zip(&p.funcs[original].params)
            .enumerate()
        {
            assert_ne!(v, w);
            assert!(matches!(p.vars[v].kind, VarKind::Param(g, i) if g == f && i as usize == k));
        }
        for &v in &p.funcs[f].locals {
            assert!(matches!(p.vars[v].kind, VarKind::Local(g) | VarKind::Temp(g) if g == f));
            assert!(!p.funcs[original].locals.contains(&v));
        }
    }
}

#[test]
fn a_starter_given_its_routine_as_a_parameter_is_copied_without_a_trampoline() {
    let mut p = lower(&format!(
        "{LIBRARY} void *w(void *x) {{ return x; }}
         int main(void) {{ spawn(plain); spawn(w); return 0; }}"
    ));
    let spawn = defined(&p, "spawn");
    let functions = p.funcs.len();
    assert_eq!(specialise(&mut p), 1);
    assert_eq!(p.funcs.len(), functions + 1, "one copy, no trampoline");
    let calls = main_calls(&p);
    assert_eq!(calls[0], spawn);
    assert_eq!(p.original(calls[1]), spawn);
}

#[test]
fn calls_without_a_designator_and_functions_that_are_no_starters_stay() {
    let mut p = lower(&format!(
        "{LIBRARY} void (*hook)(void *) = a;
         int main(void) {{ launch(hook, 0); launch(b, 0); fixed(a); fixed(b); return 0; }}"
    ));
    let functions = p.funcs.len();
    assert_eq!(
        specialise(&mut p),
        0,
        "one list of designators, and a fixed routine"
    );
    assert_eq!(p.funcs.len(), functions);
    assert!(p.copies.is_empty());
}

#[test]
fn at_most_max_copies_of_one_starter_are_made() {
    let routines: String = (0..MAX_COPIES + 3)
        .map(|k| format!("void r{k}(void *x) {{ (void)x; }}\n"))
        .collect();
    let launches: String = (0..MAX_COPIES + 3)
        .map(|k| format!("launch(r{k}, 0); "))
        .collect();
    let mut p = lower(&format!(
        "{LIBRARY}{routines} int main(void) {{ {launches} return 0; }}"
    ));
    let launch = defined(&p, "launch");
    specialise(&mut p);
    let calls = main_calls(&p);
    let copies = calls.iter().filter(|&&c| c != launch).count();
    assert_eq!(copies, MAX_COPIES);
    assert_eq!(&calls[MAX_COPIES + 1..], [launch, launch]);
    // A copy of `launch` and one of `ignition` each.
    assert_eq!(p.copies.len(), 2 * MAX_COPIES);
}

#[test]
fn a_starter_too_large_is_not_copied() {
    let body: String = (0..MAX_STATEMENTS)
        .map(|k| format!("n += {k};\n"))
        .collect();
    let mut p = lower(&format!(
        "{LIBRARY} long n;
         static void big(void *(*start)(void *)) {{
           pthread_t t;
           {body}
           pthread_create(&t, 0, start, 0);
         }}
         void *w(void *x) {{ return x; }}
         int main(void) {{ big(plain); big(w); spawn(plain); spawn(w); return 0; }}"
    ));
    let big = defined(&p, "big");
    let spawn = defined(&p, "spawn");
    assert_eq!(specialise(&mut p), 1, "spawn only");
    let calls = main_calls(&p);
    assert_eq!(calls[..2], [big, big]);
    assert_eq!(p.original(calls[3]), spawn);
    assert_ne!(calls[3], spawn);
}

#[test]
fn a_trampoline_copy_calls_its_own_copy_of_a_helper_given_the_capsule() {
    let library = LIBRARY.replace(
        "static void *ignition(void *arg) { struct capsule *c = arg; c->probe(c->payload); return 0; }",
        "void clean(void *arg) { struct capsule *c = arg; if (c->probe) c->payload = 0; }
         void other(int n) { (void)n; }
         static void *ignition(void *arg) {
             void *kept = arg;
             struct capsule *c = arg;
             c->probe(c->payload);
             clean(kept);
             other(1);
             return 0;
         }",
    );
    let mut p = lower(&format!(
        "{library} int main(void) {{ launch(a, 0); launch(b, 0); return 0; }}"
    ));
    let (clean, other) = (defined(&p, "clean"), defined(&p, "other"));
    let ignition = defined(&p, "ignition");
    assert_eq!(specialise(&mut p), 1);
    let copy = main_calls(&p)[1];
    let t_copy = started(&p, copy)[0];
    assert_ne!(t_copy, ignition);
    let called =
        |f: FuncId| -> Vec<FuncId> { p.funcs[f].direct_calls().map(|(_, _, g, _)| g).collect() };
    // The original trampoline keeps the helpers; the copy has its own `clean` (handed the
    // capsule through a local that holds only it), and shares `other`.
    assert_eq!(called(ignition), [clean, other]);
    let in_copy = called(t_copy);
    assert_eq!(in_copy.len(), 2);
    assert_ne!(in_copy[0], clean);
    assert_eq!(p.funcs[in_copy[0]].name, "clean");
    assert_eq!(p.original(in_copy[0]), clean);
    assert_eq!(in_copy[1], other);
}
