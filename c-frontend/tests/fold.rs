//! Tests of `fold`: which variables hold one value, which branches they decide, and which they
//! must not (each case the soundness argument of `fold.rs` names).

mod support;

use c_frontend::fold::fold;
use support::lower;

/// The names of the variables that decided branches, and how many branches were decided.
fn folded(text: &str, open_world: bool) -> (Vec<String>, usize) {
    let mut p = lower(text);
    let f = fold(&mut p, open_world);
    let names = f
        .constants
        .iter()
        .map(|c| format!("{}={}", p.vars[c.var].name, c.value))
        .collect();
    (names, f.branches)
}

#[test]
fn a_global_never_written_decides_and_its_dead_side_is_emptied() {
    let text = "static int use_cache; static long hits;
        void work(void) { if (use_cache) { hits++; hits++; } }";
    let mut p = lower(text);
    let f = fold(&mut p, false);
    assert_eq!(f.branches, 1);
    assert!(f.blocks >= 1, "the cache block is emptied: {f:?}");
    assert_eq!(p.vars[f.constants[0].var].name, "use_cache");
}

#[test]
fn values_flow_through_parameters_and_globals() {
    let text = "static unsigned server; static long q;
        static void start(unsigned s) { server = s; }
        void run(void) { if (server == 1) q++; }
        int main(void) { start(0); run(); return 0; }";
    assert_eq!(folded(text, false), (vec!["server=0".to_string()], 1));
}

#[test]
fn a_second_value_anywhere_keeps_the_branch() {
    let text = "static int fast; static long n;
        static void set(int v) { fast = v; }
        void work(void) { if (fast) n++; }
        int main(void) { set(0); set(1); work(); return 0; }";
    assert_eq!(folded(text, false), (vec![], 0));
}

#[test]
fn an_address_taken_anywhere_keeps_the_branch() {
    let text = "static int flag; static long n;
        static void enable(int *f) { *f = 1; }
        void work(void) { if (flag) n++; }
        int main(void) { enable(&flag); work(); return 0; }";
    assert_eq!(folded(text, false), (vec![], 0));
}

#[test]
fn a_function_called_through_a_pointer_may_get_any_argument() {
    let text = "static long n;
        static void work(int on) { if (on) n++; }
        void (*hook)(int) = work;
        int main(void) { work(0); hook(1); return 0; }";
    assert_eq!(folded(text, false), (vec![], 0));
}

#[test]
fn volatile_variables_are_never_assumed() {
    let text = "static volatile int stop; typedef volatile int flag_t; static flag_t quit;
        static int *volatile where; static long n;
        void work(void) { if (stop) n++; if (quit) n++; if (where) n++; }";
    assert_eq!(folded(text, false), (vec![], 0));
}

#[test]
fn only_zero_and_one_are_stored_values() {
    // A `_Bool` stores 2 as 1 and a `signed char` 200 as -56; the IR does not tell those types
    // from `int`, so neither value is assumed.
    let text = "static _Bool on = 2; static signed char c = 200; static long n;
        void work(void) { if (on == 2) n++; if (c == 200) n++; }";
    assert_eq!(folded(text, false), (vec![], 0));
}

#[test]
fn a_comparison_with_a_larger_constant_is_decided() {
    let text = "static int level; static long n;
        void work(void) { if (level > 3) n++; if (level < 100000) n--; }";
    assert_eq!(folded(text, false), (vec!["level=0".to_string()], 2));
}

#[test]
fn an_open_world_assumes_only_what_other_code_cannot_name() {
    let text = "int visible; static int hidden; static long n;
        void work(void) { if (visible) n++; if (hidden) n++; }";
    assert_eq!(folded(text, true), (vec!["hidden=0".to_string()], 1));
    assert_eq!(folded(text, false).1, 2);
}

#[test]
fn a_temporary_is_reported_as_the_variable_behind_it() {
    let text = "static int *p; static int x; static long n;
        void work(void) { int *q = p ?: &x; n += *q; }";
    let (names, branches) = folded(text, false);
    assert_eq!((names, branches), (vec!["p=0".to_string()], 1));
}
