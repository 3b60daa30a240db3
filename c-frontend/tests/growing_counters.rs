//! Hand-offs of a growing counter's value (`JoinPlan::value_handoffs`, the monotone counters of
//! `c_frontend::analyses::joins`): `pthread_create(…, (void *)o.next)` hands every thread its
//! own value when nothing but increments of the create's function changes `o.next` between two
//! successful creates — also when a failed create is retried. Never when a success path can
//! reach the create again without an increment, when the counter is started again after a
//! create, counts down, or is written by another function.

mod support;

use c_frontend::analyses::joins::plan;
use support::{defined, lower};

const DECLARATIONS: &str = "typedef unsigned long pthread_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
int usleep(unsigned);
void *work(void *arg) { return arg; }
pthread_t t;
";

/// The functions of a program (after [`DECLARATIONS`]) whose create hands over a counter's
/// value, sorted.
fn handing(source: &str) -> Vec<String> {
    let p = lower(&format!("{DECLARATIONS}{source}"));
    let jp = plan(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        Some(defined(&p, "main")),
        &solver::stats::Stats::off(),
    );
    let mut out: Vec<String> = jp
        .value_handoffs
        .keys()
        .map(|&(f, _, _)| p.funcs[f].name.clone())
        .collect();
    out.sort();
    out
}

/// `start` is the function under test; `main` calls it once.
fn hands_over(start: &str) -> bool {
    let source = format!("struct {{ unsigned long cur, n; }} o;\nint g;\n{start}\nint main(void) {{ start(); return 0; }}");
    handing(&source) == ["start"]
}

#[test]
fn a_member_counter_grown_after_each_create_hands_distinct_values() {
    assert!(hands_over(
        "void start(void) { o.cur = 0; while (o.cur < o.n) { pthread_create(&t, 0, work, (void *)o.cur); o.cur++; } }"
    ));
}

#[test]
fn a_failed_create_may_be_retried_with_the_same_value() {
    assert!(hands_over(
        "void start(void) { o.cur = 0; while (o.cur < o.n) {
            while (1) { int rc = pthread_create(&t, 0, work, (void *)o.cur);
                        unsigned char r = (unsigned char)rc;
                        if (!((int)r != 0)) break;
                        usleep(10); }
            o.cur += 2; } }"
    ));
}

#[test]
fn a_success_that_reaches_the_create_again_without_growing_is_no_handoff() {
    assert!(!hands_over(
        "void start(void) { o.cur = 0; while (o.cur < o.n) {
            int rc = pthread_create(&t, 0, work, (void *)o.cur);
            if (rc == 0 && g) continue;
            o.cur++; } }"
    ));
    // The result tested is no longer the create's.
    assert!(!hands_over(
        "void start(void) { o.cur = 0; while (o.cur < o.n) {
            while (1) { int rc = pthread_create(&t, 0, work, (void *)o.cur);
                        rc = g; if (rc == 0) break; }
            o.cur++; } }"
    ));
}

#[test]
fn a_counter_started_again_after_a_create_is_no_handoff() {
    assert!(!hands_over(
        "void start(void) { int k; for (k = 0; k < 2; k++) { o.cur = 0;
            while (o.cur < o.n) { pthread_create(&t, 0, work, (void *)o.cur); o.cur++; } } }"
    ));
}

#[test]
fn a_counter_counting_down_or_written_elsewhere_is_no_handoff() {
    assert!(!hands_over(
        "void start(void) { o.cur = 9; while (o.cur > 0) { pthread_create(&t, 0, work, (void *)o.cur); o.cur--; } }"
    ));
    assert!(!hands_over(
        "void reset(void) { o.cur = 0; }
         void start(void) { o.cur = 0; while (o.cur < o.n) { pthread_create(&t, 0, work, (void *)o.cur); o.cur++; } }"
    ));
    assert!(!hands_over(
        "void start(void) { unsigned long *p = &o.cur; o.cur = 0;
            while (o.cur < o.n) { pthread_create(&t, 0, work, (void *)o.cur); (*p)++; o.cur++; } }"
    ));
}

#[test]
fn a_local_counter_grown_after_each_create_hands_distinct_values() {
    assert!(hands_over(
        "int more(void); void start(void) { long n = 0; while (more()) { pthread_create(&t, 0, work, (void *)n); n++; } }"
    ));
    // Counted down again once no create follows (a join loop `while (n > 0) join(t[--n])`).
    assert!(hands_over(
        "int more(void); void start(void) { long n = 0; while (more()) { pthread_create(&t, 0, work, (void *)n); n++; } while (n > 0) n--; }"
    ));
    // Counted down, or grown only on one path from the create.
    assert!(!hands_over(
        "int more(void); void start(void) { long n = 9; while (more()) { pthread_create(&t, 0, work, (void *)n); n--; } }"
    ));
    assert!(!hands_over(
        "int more(void); void start(void) { long n = 0; while (more()) { pthread_create(&t, 0, work, (void *)n); if (g) n++; } }"
    ));
    // Its address taken: written through a pointer too.
    assert!(!hands_over(
        "void bump(long *); int more(void); void start(void) { long n = 0; while (more()) { pthread_create(&t, 0, work, (void *)n); bump(&n); n++; } }"
    ));
}
