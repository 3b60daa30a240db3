//! Guard joins (`c_frontend::analyses::guard_joins`): the null side of a lazily filled guard's
//! test joins the handles all of whose creates are made where the guard is certainly set. A
//! create made before the guard is set, or after a call that may reset it or that goes through
//! a pointer, leaves its handle out.

mod support;

use c_frontend::analyses::calls::Calls;
use c_frontend::analyses::joins::plan;
use c_frontend::analyses::stub_captures::non_capturing_functions;
use c_frontend::analyses::{guard_joins, singletons};
use support::{defined, lower};

const DECLARATIONS: &str = "typedef unsigned long pthread_t;
typedef unsigned long size_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void *malloc(size_t);
void free(void *);
void abort(void);
struct gate { int value; } *gate;
struct node { pthread_t tid; struct node *link; } *roster;
void (*hook)(void);
void *run(void *a) { return a; }
void setup(void) {
    if (gate != 0) return;
    gate = malloc(sizeof *gate);
    if (gate == 0) abort();
}
void spawn(void) {
    struct node *n = malloc(sizeof *n);
    pthread_create(&n->tid, 0, run, 0);
    n->link = roster;
    roster = n;
}
void finish(void) {
    while (roster != 0) {
        struct node *n = roster;
        pthread_join(n->tid, 0);
        roster = n->link;
        free(n);
    }
    free(gate);
    gate = 0;
}
void reset(void) { gate = 0; }
";

/// The guard joins of a program (after [`DECLARATIONS`], `BATCH` standing for `batch`'s body):
/// for each, how many handles it joins and where.
fn joins(batch: &str) -> Vec<(usize, usize)> {
    let source = format!(
        "{DECLARATIONS}void batch(void) {{ {batch} }}
int main(void) {{ for (int r = 0; r < 2; r++) {{ for (int k = 0; k < 3; k++) batch(); finish(); }} return 0; }}"
    );
    let mut p = lower(&source);
    p.non_capturing_functions = non_capturing_functions(&p);
    let calls = Calls::of(&p);
    let main = defined(&p, "main");
    let mut jp = plan(&p, &calls, Some(main), &solver::stats::Stats::off());
    let guards = singletons::guards(&p, &calls);
    guard_joins::find(&p, &calls, main, &guards, &mut jp)
        .iter()
        .map(|g| (g.aliases.len(), g.at.len()))
        .collect()
}

#[test]
fn a_create_made_after_the_setup_is_joined_where_the_guard_is_null() {
    // Two null sides: the test's in `setup`, and the failed creation's.
    assert_eq!(joins("setup(); spawn();"), [(1, 2)]);
    // Set by the test's non-null side as well as by the creation.
    assert_eq!(joins("if (gate == 0) setup(); spawn();"), [(1, 3)]);
}

#[test]
fn a_create_where_the_guard_may_be_null_is_not() {
    assert!(joins("spawn(); setup();").is_empty());
    assert!(joins("setup(); reset(); spawn();").is_empty());
    assert!(joins("setup(); hook(); spawn();").is_empty());
}
