//! Tests of each thread's own range of elements (`analyses/unpacks/ranges.rs`): the forms of
//! `[id·c, (id + 1)·c)` it accepts, and each condition of its soundness argument that, broken,
//! leaves the access outside any range.

mod support;

use c_frontend::analyses::unpacks::Package;
use c_frontend::ir::{Base, StmtKind};

const PRELUDE: &str = "typedef unsigned long pthread_t;
    int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
    int pthread_join(pthread_t, void **);
    int out[64];
    int rows = 16, parts = 4;
";

/// The worker: `DECLS` then `LOOP` writing `out[i]`; `main` starts four with their index, then
/// runs `AFTER`.
const PROGRAM: &str = "
void *work(void *arg) {
    long id = (long)arg;
    DECLS;
    LOOP
        out[i] = 1;
    return 0;
}
int main(void) {
    pthread_t t[4];
    for (long k = 0; k < 4; k++)
        pthread_create(&t[k], 0, work, (void *)k);
    AFTER;
    for (int k = 0; k < 4; k++)
        pthread_join(t[k], 0);
    return 0;
}
";

/// Whether the worker's store into `out` lies in a range.
fn in_range(decls: &str, looped: &str, after: &str) -> bool {
    let text = format!(
        "{PRELUDE}{}",
        PROGRAM
            .replace("DECLS", decls)
            .replace("LOOP", looped)
            .replace("AFTER", after)
    );
    let p = support::lower(&text);
    let (main, work) = (support::defined(&p, "main"), support::defined(&p, "work"));
    let unpacks = support::unpacks_of(&p, main);
    let Some(u) = unpacks.get(&work) else {
        return false;
    };
    for (b, block) in p.funcs[work].blocks.iter_enumerated() {
        for (k, stmt) in block.stmts.iter().enumerate() {
            let StmtKind::Assign { dst, .. } = &stmt.kind else {
                continue;
            };
            if matches!(dst.base, Base::Var(v) if p.vars[v].name == "out") {
                return u
                    .before(b, k)
                    .iter()
                    .any(|h| matches!(h.package, Package::Range(..)));
            }
        }
    }
    panic!("no store into out")
}

const CHUNK: &str = "int chunk = rows / parts";

#[test]
fn the_forms_of_a_range() {
    let loops = [
        "for (int i = id * chunk; i < (id + 1) * chunk; i++)",
        "for (int i = chunk * id; i < chunk * (1 + id); i += 1)",
        "for (int i = id * chunk; (id + 1) * chunk > i; ++i)",
        "for (int i = id * chunk; i < id * chunk + chunk; i++)",
        "int lo = id * chunk, hi = lo + chunk; for (int i = lo; i < hi; i++)",
        "for (int i = id * chunk; !(i >= (id + 1) * chunk); i++)",
    ];
    for l in loops {
        assert!(in_range(CHUNK, l, ""), "{l}");
    }
    // A constant width, and one written inline.
    assert!(in_range(
        "",
        "for (int i = id * 4; i < (id + 1) * 4; i++)",
        ""
    ));
}

#[test]
fn a_range_that_may_meet_another_is_none() {
    // One element too far.
    assert!(!in_range(
        CHUNK,
        "for (int i = id * chunk; i <= (id + 1) * chunk; i++)",
        ""
    ));
    // Counting down from the top: `i` is not known to stay above the start.
    assert!(!in_range(
        CHUNK,
        "for (int i = (id + 1) * chunk - 1; i >= id * chunk; i--)",
        ""
    ));
    // A step back inside the loop, before the store.
    assert!(!in_range(
        CHUNK,
        "for (int i = id * chunk; i < (id + 1) * chunk; i++) if ((i = i - 1) >= 0)",
        ""
    ));
    // Two different widths.
    assert!(!in_range(
        "int chunk = rows / parts, other = rows / 2",
        "for (int i = id * chunk; i < (id + 1) * other; i++)",
        ""
    ));
    // A width that depends on the thread.
    assert!(!in_range(
        "int chunk = rows / (id + 1)",
        "for (int i = id * chunk; i < (id + 1) * chunk; i++)",
        ""
    ));
    // A width assigned twice.
    assert!(!in_range(
        "int chunk = rows / parts; if (id) chunk = 2",
        "for (int i = id * chunk; i < (id + 1) * chunk; i++)",
        ""
    ));
    // A global `main` changes after starting the threads.
    assert!(!in_range(
        CHUNK,
        "for (int i = id * chunk; i < (id + 1) * chunk; i++)",
        "parts = 2"
    ));
    // A floating width: a truncated start may fall into the previous range.
    assert!(!in_range(
        "double chunk = rows / 2.5",
        "for (int i = id * chunk; i < (id + 1) * chunk; i++)",
        ""
    ));
}

/// The last thread (the largest value of `main`'s loop `k < 4`) may take the remainder.
#[test]
fn the_last_thread_may_take_the_rest() {
    let walk = "for (int i = id * chunk; i < end; i++)";
    for last in ["3", "4 - 1"] {
        let decls = format!("{CHUNK}; int end = (id == {last}) ? 64 : (id + 1) * chunk");
        assert!(in_range(&decls, walk, ""), "{last}");
        let decls = format!("{CHUNK}; int end = (id + 1) * chunk; if ({last} == id) end = 64");
        assert!(in_range(&decls, walk, ""), "{last}");
    }
    // Not the last value: that thread's rest runs into the next range.
    for other in ["2", "0", "4"] {
        let decls = format!("{CHUNK}; int end = (id == {other}) ? 64 : (id + 1) * chunk");
        assert!(!in_range(&decls, walk, ""), "{other}");
    }
    // The rest on the other side of the test.
    let decls = format!("{CHUNK}; int end = (id != 3) ? 64 : (id + 1) * chunk");
    assert!(!in_range(&decls, walk, ""));
    // A global bound the create loop does not compare with.
    let decls = format!("{CHUNK}; int end = (id == parts - 1) ? 64 : (id + 1) * chunk");
    assert!(!in_range(&decls, walk, ""));
}
