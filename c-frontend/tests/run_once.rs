//! Which functions run at most once (`c_frontend::analyses::once`): `main`, and a function called
//! once, directly, outside any loop, by a function that runs once — never one called twice, in
//! a loop, from a function that may run twice, or whose address is taken.

mod support;

use c_frontend::analyses::once::run_once;
use support::{defined, lower};

fn once_names(source: &str) -> Vec<String> {
    let p = lower(source);
    let mut names: Vec<String> = run_once(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        defined(&p, "main"),
    )
    .into_iter()
    .map(|f| p.funcs[f].name.clone())
    .collect();
    names.sort();
    names
}

const PROGRAM: &str = "
int n;
void nested(void) { n++; }
void setup(void) { nested(); }
void twice(void) { n--; }
void under_twice(void) { n += 2; }
void looped(void) { under_twice(); }
void called_back(void) { n = 0; }
void (*hook)(void);
void taken(void) { n = 1; }
int main(int argc, char **argv) {
    setup();
    twice();
    if (argc > 1)
        twice();
    for (int i = 0; i < argc; i++)
        looped();
    hook = called_back;
    taken();
    void (*p)(void) = taken;
    (void)p;
    (void)argv;
    return 0;
}
";

#[test]
fn main_and_what_it_calls_once_outside_loops_run_once() {
    assert_eq!(once_names(PROGRAM), ["main", "nested", "setup"]);
}

#[test]
fn nothing_runs_once_when_main_is_called() {
    let source =
        "void setup(void) {} int main(void) { setup(); return 0; } void again(void) { main(); }";
    assert!(once_names(source).is_empty());
}
