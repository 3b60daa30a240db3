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
    let never = never_returning(&p);
    let mut names: Vec<&str> = never.iter().map(|&f| p.funcs[f].name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["die", "die_twice", "spin"]);
}
