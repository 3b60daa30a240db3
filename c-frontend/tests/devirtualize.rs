//! Calls through pointers that can hold one function only (`c_frontend::devirtualize`): a
//! variable, or a member of a struct variable reached by fields (`api.enter`, an ops table kept in
//! a global), whose every write stores that function's designator becomes a direct call of it.
//! A member written otherwise, or through a copy of its struct, an element, a union member or
//! a taken address, stays a call through a pointer.

mod support;

use c_frontend::devirtualize::devirtualize;
use c_frontend::ir::{Callee, StmtKind};
use support::{defined, lower};

const DECLARATIONS: &str = "
int real_enter(int *m) { return *m; }
int real_leave(int *m) { return -*m; }
int noop(int *m) { return 0; }
struct methods { int (*enter)(int *); int (*leave)(int *); };
struct config { int size; struct methods mutex; };
union either { struct methods m; long raw; };
void use(void *p);
int lock;
";

/// The functions `main` calls directly once the calls through pointers are rewritten (after
/// [`DECLARATIONS`]), in program order.
fn direct_calls(source: &str) -> Vec<String> {
    let mut p = lower(&format!("{DECLARATIONS}{source}"));
    let main = defined(&p, "main");
    devirtualize(&mut p, main, false);
    p.funcs[main]
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .filter_map(|s| match &s.kind {
            StmtKind::Call {
                callee: Callee::Direct(f),
                ..
            } => Some(p.funcs[*f].name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_member_of_an_ops_table_that_holds_one_function_is_called_directly() {
    let calls = direct_calls(
        "static struct methods api = { real_enter, real_leave };
         int main(void) { api.enter(&lock); return api.leave(&lock); }",
    );
    assert_eq!(calls, ["real_enter", "real_leave"]);
}

#[test]
fn a_nested_member_and_one_assigned_in_code_that_runs() {
    let calls = direct_calls(
        "static struct config cfg;
         static void setup(void) { cfg.mutex.enter = real_enter; cfg.size = 4; }
         int main(void) { setup(); return (*cfg.mutex.enter)(&lock); }",
    );
    assert_eq!(calls, ["setup", "real_enter"]);
}

#[test]
fn a_plain_variable_is_still_called_directly() {
    let calls = direct_calls(
        "static int (*enter)(int *) = real_enter;
         int main(void) { return enter(&lock); }",
    );
    assert_eq!(calls, ["real_enter"]);
}

#[test]
fn a_member_that_may_hold_two_functions_stays_indirect() {
    let calls = direct_calls(
        "static struct methods api = { real_enter, real_leave };
         int main(int argc, char **argv) { if (argc > 1) api.enter = noop; return api.enter(&lock); }",
    );
    assert!(calls.is_empty(), "{calls:?}");
}

#[test]
fn a_table_copied_over_whole_stays_indirect() {
    let whole = direct_calls(
        "static struct methods api = { real_enter, real_leave };
         static struct methods spare;
         int main(void) { api = spare; return api.enter(&lock); }",
    );
    assert!(whole.is_empty(), "{whole:?}");
    let nested = direct_calls(
        "static struct config cfg = { 1, { real_enter, real_leave } };
         static struct methods spare;
         int main(void) { cfg.mutex = spare; return cfg.mutex.enter(&lock); }",
    );
    assert!(nested.is_empty(), "{nested:?}");
}

#[test]
fn a_table_whose_address_is_taken_stays_indirect() {
    let calls = direct_calls(
        "static struct methods api = { real_enter, real_leave };
         int main(void) { use(&api); return api.enter(&lock); }",
    );
    assert_eq!(calls, ["use"]);
}

#[test]
fn elements_and_union_members_stay_indirect() {
    let element = direct_calls(
        "static struct methods tables[2] = { { real_enter, real_leave }, { real_enter, real_leave } };
         int main(void) { return tables[0].enter(&lock); }",
    );
    assert!(element.is_empty(), "{element:?}");
    let member = direct_calls(
        "static union either u;
         int main(void) { u.m.enter = real_enter; u.raw = 7; return u.m.enter(&lock); }",
    );
    assert!(member.is_empty(), "{member:?}");
}

#[test]
fn a_write_in_code_that_never_runs_does_not_count() {
    let calls = direct_calls(
        "static struct methods api = { real_enter, real_leave };
         void never_called(void) { api.enter = noop; }
         int main(void) { return api.enter(&lock); }",
    );
    assert_eq!(calls, ["real_enter"]);
}
