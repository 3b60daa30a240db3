//! The program's own functions that never return (`analyses/never_returns.rs`): those whose
//! every path ends in a call of one that never returns, transitively — never one with a path
//! to a `return`, however unlikely.

mod support;

use c_frontend::analyses::never_returns::never_returning;

const PROGRAM: &str = "void exit(int);
int printf(const char *, ...);
void (*hook)(int);
void die(int rc) { printf(\"%d\", rc); if (hook) hook(rc); exit(rc); }
void die_twice(int rc) { if (rc > 1) die(rc); die(rc + 1); }
void spin(void) { for (;;) ; }
void maybe(int rc) { if (rc) die(rc); }
int check(int rc) { if (rc == 0) return 0; die_twice(rc); return 1; }
int main(void) { return check(0); }
";

#[test]
fn functions_whose_every_path_ends_in_one_that_never_returns() {
    let p = support::lower(PROGRAM);
    let never = never_returning(&p, &c_frontend::analyses::calls::Calls::of(&p));
    let mut names: Vec<&str> = never.iter().map(|&f| p.funcs[f].name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["die", "die_twice", "spin"]);
}

/// Callers defined before their callees: each is checked before what it calls is known never
/// to return, and must be checked again once it is.
#[test]
fn callers_found_again_when_a_callee_is_found_never_to_return() {
    let p = support::lower(
        "void exit(int);
void middle(int rc);
void bottom(int rc);
void top(int rc) { middle(rc); }
void middle(int rc) { if (rc) bottom(rc); else bottom(rc + 1); }
void bottom(int rc) { exit(rc); }
void returns_after(int rc) { if (rc) top(rc); }
int main(void) { top(0); return 0; }
",
    );
    let never = never_returning(&p, &c_frontend::analyses::calls::Calls::of(&p));
    let mut names: Vec<&str> = never.iter().map(|&f| p.funcs[f].name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["bottom", "main", "middle", "top"]);
}
