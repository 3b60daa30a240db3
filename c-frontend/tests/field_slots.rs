//! Tests of the slots by a field of the thread's element (`analyses/unpacks/field_slots.rs`):
//! the shape it accepts, and each condition of its soundness argument that, broken, leaves the
//! worker without a slot.

mod support;

use c_frontend::analyses::unpacks::Package;

const PRELUDE: &str = "typedef unsigned long pthread_t;
    int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
    int pthread_join(pthread_t, void **);
    void *memset(void *, int, unsigned long);
    struct task { int id; int n; };
    long partial[4];
";

/// The worker, reading its id from its element, and `main`'s create loop; `EXTRA` is added at
/// the end of `main`, `SET` is the store of the id.
const PROGRAM: &str = "
void *work(void *arg) {
    struct task *my = arg;
    int id = my->id;
    partial[id] = my->n;
    return 0;
}
int main(void) {
    pthread_t t[4];
    struct task tasks[4];
    for (int i = 0; i < 4; i++) {
        SET;
        tasks[i].n = 1;
        pthread_create(&t[i], 0, work, &tasks[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    EXTRA;
    return 0;
}
";

/// Whether the worker indexes by a slot.
fn has_slot(set: &str, extra: &str, more: &str) -> bool {
    let text = format!(
        "{PRELUDE}{more}{}",
        PROGRAM.replace("SET", set).replace("EXTRA", extra)
    );
    let p = support::lower(&text);
    let (main, work) = (support::defined(&p, "main"), support::defined(&p, "work"));
    let unpacks = support::unpacks_of(&p, main);
    let Some(u) = unpacks.get(&work) else {
        return false;
    };
    u.before(c_frontend::ir::BlockId(0), 0)
        .iter()
        .any(|h| matches!(h.package, Package::Slot(..)))
}

#[test]
fn the_counter_stored_in_a_field_is_a_slot() {
    assert!(has_slot("tasks[i].id = i", "", ""));
}

#[test]
fn a_field_that_may_change_is_no_slot() {
    // Not the counter.
    assert!(!has_slot("tasks[i].id = i / 2", "", ""));
    // Stored again elsewhere, even after the joins.
    assert!(!has_slot("tasks[i].id = i", "tasks[0].id = 1", ""));
    // A whole struct stored.
    assert!(!has_slot("tasks[i].id = i", "tasks[1] = tasks[0]", ""));
    // Handed to a library function, which may write it.
    assert!(!has_slot("tasks[i].id = i", "memset(&tasks[0], 0, 8)", ""));
    // Converted to another pointer type, through which it may be written.
    assert!(!has_slot(
        "tasks[i].id = i",
        "int *raw = (int *)&tasks[0]; *raw = 0",
        ""
    ));
    // Its address taken, to be written through.
    assert!(!has_slot(
        "tasks[i].id = i",
        "int *idp = &tasks[0].id; *idp = 0",
        ""
    ));
    // Inside another aggregate, which may be written whole.
    assert!(!has_slot(
        "tasks[i].id = i",
        "",
        "struct pair { struct task a, b; };"
    ));
}
