//! Global pointers filled lazily (`c_frontend::analyses::singletons`): a guard created only
//! under a test of it against null and never copied, with the companions created right after
//! it, is found with every creation's call; one created without the test, copied, or created
//! again where it may already be set is not a guard.

mod support;

use c_frontend::analyses::singletons::guards;
use c_frontend::analyses::stub_captures::non_capturing_functions;
use support::lower;

const DECLARATIONS: &str = "typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
struct gate { int value; };
struct gate *gate, *aside, *kept;
struct gate *make(void) { struct gate *g = malloc(sizeof *g); g->value = 0; return g; }
void drop(struct gate *g) { free(g); }
void touch(struct gate *g) { g->value++; }
";

/// The guards of a program (after [`DECLARATIONS`]): the variable, then how many calls run
/// once per epoch and how many resets it has.
fn found(source: &str) -> Vec<String> {
    let mut p = lower(&format!("{DECLARATIONS}{source}"));
    p.non_capturing_functions = non_capturing_functions(&p);
    guards(&p, &c_frontend::analyses::calls::Calls::of(&p))
        .iter()
        .map(|g| {
            format!(
                "{} once={} resets={}",
                p.vars[g.var].name,
                g.once.len(),
                g.resets.len()
            )
        })
        .collect()
}

#[test]
fn a_guard_and_its_companion_are_created_once_per_epoch() {
    let guards = found(
        "void start(void) { if (gate != 0) return; gate = make(); aside = make(); }
         void stop(void) { drop(gate); drop(aside); gate = 0; aside = 0; }
         int main(void) { start(); touch(gate); touch(aside); stop(); start(); return 0; }",
    );
    assert_eq!(guards, ["gate once=2 resets=1"]);
}

#[test]
fn the_test_may_be_a_truth_test_and_the_creation_direct() {
    let guards = found("void need(void) { if (!gate) gate = make(); }");
    assert_eq!(guards, ["gate once=1 resets=0"]);
}

#[test]
fn a_creation_without_its_test_is_no_guard() {
    assert!(found("void start(void) { gate = make(); }").is_empty());
    assert!(found("void start(void) { if (aside == 0) gate = make(); }").is_empty());
}

#[test]
fn a_copied_guard_is_no_guard() {
    let copied = "void start(void) { if (gate == 0) gate = make(); kept = gate; }";
    assert!(found(copied).is_empty());
    let handed = "void keep(struct gate *g) { kept = g; }
                  void start(void) { if (gate == 0) gate = make(); keep(gate); }";
    assert!(found(handed).is_empty());
}

#[test]
fn a_creation_handed_a_pointer_is_no_guard() {
    // `make_into` may keep the object it returns in `*out` too.
    let into = "struct gate *make_into(struct gate **out) { *out = make(); return *out; }
                void start(void) { if (gate == 0) gate = make_into(&kept); }";
    assert!(found(into).is_empty());
}

#[test]
fn a_creation_that_may_run_again_while_set_is_no_guard() {
    // In a loop after the test: each iteration makes another.
    let looped = "void start(int n) { if (gate == 0) for (int i = 0; i < n; i++) gate = make(); }";
    assert!(found(looped).is_empty());
    // A call between the test and the creation that may reset the guard.
    let reset = "void stop(void) { gate = 0; }
                 void start(void) { if (gate == 0) { stop(); gate = make(); } }";
    assert!(found(reset).is_empty());
    // Any other store into the guard.
    let other = "struct gate fixed;
                 void start(void) { if (gate == 0) gate = make(); }
                 void pin(void) { gate = &fixed; }";
    assert!(found(other).is_empty());
}

#[test]
fn a_companion_created_outside_the_region_is_left_out() {
    let guards = found(
        "void start(void) { if (gate != 0) return; gate = make(); }
         void later(void) { aside = make(); }",
    );
    assert_eq!(guards, ["gate once=1 resets=0"]);
}
