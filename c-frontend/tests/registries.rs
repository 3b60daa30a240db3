//! Registry joins (`JoinPlan::registries`): a list every thread is pushed onto right after its
//! create, and from which a node is unlinked only after its thread was joined, is joined
//! wherever it is seen empty. A registration that may return before the push, an unlink
//! without a join, a node handed to the library, or any other write of the list leaves the
//! registry out.

mod support;

use c_frontend::analyses::joins::plan;
use support::{defined, lower};

const DECLARATIONS: &str = "typedef unsigned long pthread_t;
typedef unsigned long size_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void *malloc(size_t);
void free(void *);
void *memset(void *, int, size_t);
struct node { pthread_t tid; struct node *link; };
struct node *roster;
void *run(void *a) { return a; }
";

const SPAWN: &str = "void spawn(void) {
    struct node *n = malloc(sizeof *n);
    pthread_create(&n->tid, 0, run, 0);
    n->link = roster;
    roster = n;
}
";

const REAP: &str = "void reap(void) {
    while (roster != 0) {
        struct node **at = &roster;
        struct node *n = *at;
        pthread_join(n->tid, 0);
        *at = n->link;
        free(n);
    }
}
";

/// The registries of a program (after [`DECLARATIONS`]): for each, its handles and how many
/// functions must run in no thread; and how many blocks join something on entry.
fn registries(source: &str) -> Vec<(usize, usize)> {
    let p = lower(&format!("{DECLARATIONS}{source}"));
    let jp = plan(
        &p,
        &c_frontend::analyses::calls::Calls::of(&p),
        Some(defined(&p, "main")),
        &solver::stats::Stats::off(),
    );
    jp.registries
        .iter()
        .map(|(handles, funcs)| (handles.len(), funcs.len()))
        .collect()
}

const MAIN: &str = "int main(void) { for (int i = 0; i < 4; i++) spawn(); reap(); return 0; }";

#[test]
fn a_list_emptied_by_joining_is_a_registry() {
    assert_eq!(registries(&format!("{SPAWN}{REAP}{MAIN}")), [(1, 2)]);
}

#[test]
fn unlinking_the_head_after_a_join_is_an_unlink_too() {
    let reap = "void reap(void) {
        while (roster) { struct node *n = roster; pthread_join(n->tid, 0); roster = n->link; }
    }";
    assert_eq!(registries(&format!("{SPAWN}{reap}{MAIN}")), [(1, 2)]);
}

#[test]
fn a_registration_that_may_return_before_its_push_is_none() {
    let spawn = "void spawn(int quick) {
        struct node *n = malloc(sizeof *n);
        pthread_create(&n->tid, 0, run, 0);
        if (quick) return;
        n->link = roster;
        roster = n;
    }";
    let main = "int main(void) { spawn(1); reap(); return 0; }";
    assert!(registries(&format!("{spawn}{REAP}{main}")).is_empty());
}

#[test]
fn an_unlink_without_a_join_is_none() {
    let reap = "void reap(void) {
        while (roster != 0) { struct node **at = &roster; struct node *n = *at; *at = n->link; }
    }";
    assert!(registries(&format!("{SPAWN}{reap}{MAIN}")).is_empty());
}

#[test]
fn a_node_given_to_the_library_or_the_list_written_otherwise_is_none() {
    let wiped = "void wipe(void) { memset(roster, 0, sizeof *roster); }";
    assert!(registries(&format!("{SPAWN}{REAP}{wiped}{MAIN}")).is_empty());
    let cleared = "void clear(void) { roster = 0; }";
    assert!(registries(&format!("{SPAWN}{REAP}{cleared}{MAIN}")).is_empty());
    // Pushing a node that may already be in the list drops the nodes after it.
    let moved = "void front(struct node *n) { n->link = roster; roster = n; }";
    assert!(registries(&format!("{SPAWN}{REAP}{moved}{MAIN}")).is_empty());
}

#[test]
fn one_node_for_many_creates_is_none() {
    let spawn = "void spawn(void) {
        struct node *n = malloc(sizeof *n);
        for (int i = 0; i < 2; i++) pthread_create(&n->tid, 0, run, 0);
        n->link = roster;
        roster = n;
    }";
    assert!(registries(&format!("{spawn}{REAP}{MAIN}")).is_empty());
}

#[test]
fn unlinking_the_node_found_equal_to_the_joined_one_is_an_unlink() {
    // A thread library's `join(ally)`: join first, then look the node up in the list.
    let join = "void join(struct node *ally) {
        pthread_join(ally->tid, 0);
        struct node **at = &roster, *n;
        for (;;) { n = *at; if (n == 0) break; if (n == ally) break; at = &n->link; }
        if (n == 0) return;
        *at = n->link;
        free(ally);
    }";
    assert_eq!(registries(&format!("{SPAWN}{REAP}{join}{MAIN}")), [(1, 3)]);
    // Found equal to a node other than the one joined: an unlink without a join.
    let wrong = join.replace("if (n == ally) break;", "if (n != ally) break;");
    assert!(registries(&format!("{SPAWN}{REAP}{wrong}{MAIN}")).is_empty());
}

/// A registry whose every write and test holds `lib.mu`, taken through the lock wrappers
/// `hold` and `let_go`, and whose threads move their own node to the head, with `MOVE` in
/// place of the move.
const LOCKED: &str = "typedef struct { int m; } pthread_mutex_t;
typedef struct { int c; } pthread_cond_t;
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
pthread_t pthread_self(void);
struct lock { pthread_mutex_t mu; pthread_cond_t cv; } lib;
void hold(struct lock *l) { pthread_mutex_lock(&l->mu); }
void let_go(struct lock *l) { pthread_mutex_unlock(&l->mu); }
void spawn(void) {
    hold(&lib);
    struct node *n = malloc(sizeof *n);
    pthread_create(&n->tid, 0, run, 0);
    n->link = roster;
    roster = n;
    let_go(&lib);
}
void reap(void) {
    hold(&lib);
    while (roster != 0) {
        struct node **at = &roster, *n = *at;
        pthread_join(n->tid, 0);
        *at = n->link;
        free(n);
    }
    let_go(&lib);
}
void finish(void) {
    struct node **at = &roster, *n;
    MOVE
}
int main(void) { for (int i = 0; i < 4; i++) spawn(); reap(); return 0; }";

fn moved(how: &str) -> Vec<(usize, usize)> {
    registries(&LOCKED.replace("MOVE", how))
}

#[test]
fn threads_that_move_their_node_under_the_mutex_of_every_write_keep_it() {
    let under = "hold(&lib);
        while ((n = *at) != 0 && n->tid != pthread_self()) at = &n->link;
        if (n != 0) { *at = n->link; n->link = roster; roster = n; }
        let_go(&lib);";
    // The mover runs in the threads: only `spawn` and `reap` must run in none.
    assert_eq!(moved(under), [(1, 2)]);
    let unlocked = "while ((n = *at) != 0 && n->tid != pthread_self()) at = &n->link;
        if (n != 0) { *at = n->link; n->link = roster; roster = n; }";
    assert!(moved(unlocked).is_empty());
    // Letting go of the mutex between the load and the move: the node may be gone.
    let waited = "hold(&lib);
        n = *at;
        pthread_cond_wait(&lib.cv, &lib.mu);
        if (n != 0) { *at = n->link; n->link = roster; roster = n; }
        let_go(&lib);";
    assert!(moved(waited).is_empty());
    let released = "hold(&lib);
        n = *at;
        let_go(&lib);
        hold(&lib);
        if (n != 0) { *at = n->link; n->link = roster; roster = n; }
        let_go(&lib);";
    assert!(moved(released).is_empty());
    // Unlinked and not pushed back: a node leaves the list without a join.
    let left = "hold(&lib);
        while ((n = *at) != 0 && n->tid != pthread_self()) at = &n->link;
        if (n != 0) { *at = n->link; }
        let_go(&lib);";
    assert!(moved(left).is_empty());
}
