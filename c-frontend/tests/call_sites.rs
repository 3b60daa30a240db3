//! The index of the program's calls (`analyses/calls.rs`): the sites of each caller and of each
//! callee agree with the statements, `main` counts as called when anything calls it or takes
//! its address, callers come before callees, and what may write a variable reaches the callers
//! and, once an addressed function writes it, whatever may call one back.

mod support;

use c_frontend::analyses::calls::Calls;
use c_frontend::ir::{Callee, FuncId, Program, StmtKind};

const PROGRAM: &str =
    "void qsort(void *, unsigned long, unsigned long, int (*)(const void *, const void *));
int counter;
void bump(void) { counter++; }
int cmp(const void *a, const void *b) { bump(); return 0; }
void sort(int *xs) { qsort(xs, 4, sizeof *xs, cmp); }
void twice(void) { bump(); bump(); }
void unrelated(void) { }
void (*hook)(void);
void through_pointer(void) { hook(); }
int main(void) { int xs[4]; twice(); sort(xs); through_pointer(); return 0; }
";

fn id(p: &Program, name: &str) -> FuncId {
    support::defined(p, name)
}

fn names(p: &Program, fs: impl IntoIterator<Item = FuncId>) -> Vec<String> {
    let mut out: Vec<String> = fs.into_iter().map(|f| p.funcs[f].name.clone()).collect();
    out.sort();
    out
}

#[test]
fn the_sites_of_callers_and_callees_are_the_call_statements() {
    let p = support::lower(PROGRAM);
    let calls = Calls::of(&p);
    for (f, func) in p.funcs.iter_enumerated() {
        let mut walked = Vec::new();
        for (b, block) in func.blocks.iter_enumerated() {
            for (k, stmt) in block.stmts.iter().enumerate() {
                if let StmtKind::Call { callee, .. } = &stmt.kind {
                    let g = match callee {
                        Callee::Direct(g) => Some(*g),
                        Callee::Indirect(_) => None,
                    };
                    walked.push((b, k, g));
                }
            }
        }
        let indexed: Vec<_> = (calls.sites_in(f).iter())
            .map(|s| (s.block, s.stmt, s.callee))
            .collect();
        assert_eq!(indexed, walked, "the calls of {}", func.name);
        assert!(calls.sites_in(f).iter().all(|s| s.caller == f));
    }
    let bump = id(&p, "bump");
    assert_eq!(calls.call_count(bump), 3);
    assert_eq!(
        names(&p, calls.sites_calling(bump).map(|s| s.caller)),
        ["cmp", "twice", "twice"]
    );
    assert_eq!(calls.call_count(id(&p, "unrelated")), 0);
    assert_eq!(names(&p, calls.addressed().iter().copied()), ["cmp"]);
}

#[test]
fn callers_come_before_callees() {
    let p = support::lower(PROGRAM);
    let calls = Calls::of(&p);
    let order: Vec<FuncId> = calls.callers_first().iter().map(|&(f, _)| f).collect();
    let at = |name: &str| order.iter().position(|&f| f == id(&p, name)).unwrap();
    assert!(at("main") < at("twice") && at("twice") < at("bump"));
    assert!(at("main") < at("sort") && at("main") < at("through_pointer"));
    assert!(calls.callers_first().iter().all(|&(_, cyclic)| !cyclic));
}

#[test]
fn main_is_called_when_anything_calls_it_or_takes_its_address() {
    let p = support::lower(PROGRAM);
    assert!(!Calls::of(&p).main_is_called(id(&p, "main")));
    let again = support::lower(
        "int main(void); void restart(void) { main(); } int main(void) { restart(); return 0; }",
    );
    assert!(Calls::of(&again).main_is_called(id(&again, "main")));
    let taken =
        support::lower("int main(void); int (*entry)(void) = main; int main(void) { return 0; }");
    assert!(Calls::of(&taken).main_is_called(id(&taken, "main")));
}

#[test]
fn what_may_write_reaches_callers_and_what_may_call_an_addressed_writer_back() {
    let p = support::lower(PROGRAM);
    let calls = Calls::of(&p);
    let writers = [id(&p, "twice")].into_iter().collect();
    assert_eq!(names(&p, calls.may_write(&writers)), ["main", "twice"]);
    // `bump` is called by `cmp`, whose address is handed to `qsort`: the functions that hand a
    // function to a call, or call through a pointer, may call it back.
    let writers = [id(&p, "bump")].into_iter().collect();
    assert_eq!(
        names(&p, calls.may_write(&writers)),
        ["bump", "cmp", "main", "sort", "through_pointer", "twice"]
    );
}
