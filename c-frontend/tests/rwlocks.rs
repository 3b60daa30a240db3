//! Tests of `rwlocks`: the readers/writer lock functions it recognises, and each condition of its
//! soundness argument that, broken, keeps a function from being taken for a lock.

mod support;

use c_frontend::ir::Program;
use c_frontend::model::Kind;
use c_frontend::rwlocks::{recognise, LockRole};

const PRELUDE: &str = "typedef struct { int m_; } pthread_mutex_t;
    typedef struct { int c_; } pthread_cond_t;
    int pthread_mutex_lock(pthread_mutex_t *);
    int pthread_mutex_unlock(pthread_mutex_t *);
    int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
    int pthread_cond_broadcast(pthread_cond_t *);
    typedef struct { pthread_mutex_t m; pthread_cond_t ok; int readers; int writers; } rw_t;
    int shared;
";

/// The read and write unlocks every test shares.
const UNLOCKS: &str = "
    void rd_unlock(rw_t *l) { pthread_mutex_lock(&l->m); l->readers--;
        pthread_cond_broadcast(&l->ok); pthread_mutex_unlock(&l->m); }
    void wr_unlock(rw_t *l) { pthread_mutex_lock(&l->m); l->writers = 0;
        pthread_cond_broadcast(&l->ok); pthread_mutex_unlock(&l->m); }
";

const READ_LOCK: &str = "
    void rd_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers) pthread_cond_wait(&l->ok, &l->m);
        l->readers++; pthread_mutex_unlock(&l->m); }
";

const WRITE_LOCK: &str = "
    void wr_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers || l->readers) pthread_cond_wait(&l->ok, &l->m);
        l->writers = 1; pthread_mutex_unlock(&l->m); }
";

fn lower(text: &str) -> Program {
    support::lower(&format!("{PRELUDE}{text}"))
}

/// The recognised functions with their roles.
fn roles(text: &str) -> Vec<(String, LockRole)> {
    let mut p = lower(text);
    let r = recognise(&mut p);
    r.functions
        .iter()
        .map(|&(f, role)| (p.funcs[f].name.clone(), role))
        .collect()
}

#[test]
fn the_four_functions_of_a_lock_are_modelled_as_lock_calls() {
    let mut p = lower(&format!("{READ_LOCK}{WRITE_LOCK}{UNLOCKS}"));
    let r = recognise(&mut p);
    let got: Vec<(&str, LockRole)> = r
        .functions
        .iter()
        .map(|&(f, role)| (p.funcs[f].name.as_str(), role))
        .collect();
    assert_eq!(
        got,
        vec![
            ("rd_lock", LockRole::ReadLock),
            ("wr_lock", LockRole::WriteLock),
            ("rd_unlock", LockRole::ReadUnlock),
            ("wr_unlock", LockRole::WriteUnlock),
        ]
    );
    for &(f, _) in &r.functions {
        assert!(!p.funcs[f].defined && p.funcs[f].blocks.is_empty());
        assert!(matches!(
            p.known_kind(f),
            Some(Kind::Acquire { lock: 0, .. } | Kind::Release { lock: 0 })
        ));
    }
}

#[test]
fn a_writer_that_does_not_wait_for_readers_is_no_lock() {
    let writer = "void wr_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers) pthread_cond_wait(&l->ok, &l->m);
        l->writers++; pthread_mutex_unlock(&l->m); }";
    assert_eq!(roles(&format!("{READ_LOCK}{writer}{UNLOCKS}")), vec![]);
}

#[test]
fn what_was_seen_before_a_wait_is_forgotten() {
    // The reader waits once more after its test: a writer may have come in meanwhile.
    let reader = "void rd_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers) pthread_cond_wait(&l->ok, &l->m);
        pthread_cond_wait(&l->ok, &l->m);
        l->readers++; pthread_mutex_unlock(&l->m); }";
    assert_eq!(roles(&format!("{reader}{WRITE_LOCK}{UNLOCKS}")), vec![]);
}

#[test]
fn a_lock_function_that_touches_other_memory_keeps_its_body() {
    let reader = "void rd_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers) pthread_cond_wait(&l->ok, &l->m);
        l->readers++; shared++; pthread_mutex_unlock(&l->m); }";
    let got = roles(&format!("{reader}{WRITE_LOCK}{UNLOCKS}"));
    assert!(got.iter().all(|(name, _)| name != "rd_lock"), "{got:?}");
}

#[test]
fn counters_read_or_written_elsewhere_are_no_lock() {
    let reads = "int peek(rw_t *l) { return l->readers; }";
    assert_eq!(
        roles(&format!("{READ_LOCK}{WRITE_LOCK}{UNLOCKS}{reads}")),
        vec![]
    );
    let writes = "void force(rw_t *l) { l->writers = 0; l->readers = 2; }";
    assert_eq!(
        roles(&format!("{READ_LOCK}{WRITE_LOCK}{UNLOCKS}{writes}")),
        vec![]
    );
    let copies = "void copy(rw_t *a, rw_t *b) { *a = *b; }";
    assert_eq!(
        roles(&format!("{READ_LOCK}{WRITE_LOCK}{UNLOCKS}{copies}")),
        vec![]
    );
    // Stores of 0 (an initialisation) are allowed.
    let init = "void init(rw_t *l) { l->readers = 0; l->writers = 0; }";
    assert_eq!(
        roles(&format!("{READ_LOCK}{WRITE_LOCK}{UNLOCKS}{init}")).len(),
        4
    );
}

#[test]
fn a_function_returning_with_the_mutex_held_is_no_lock_function() {
    let writer = "void wr_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers || l->readers) pthread_cond_wait(&l->ok, &l->m);
        l->writers = 1; }";
    let got = roles(&format!("{READ_LOCK}{writer}{UNLOCKS}"));
    assert_eq!(got, vec![], "without a write lock nothing is a lock");
}

#[test]
fn increments_without_the_mutex_are_no_lock() {
    let reader = "void rd_lock(rw_t *l) { pthread_mutex_lock(&l->m);
        while (l->writers) pthread_cond_wait(&l->ok, &l->m);
        pthread_mutex_unlock(&l->m); l->readers++; }";
    assert_eq!(roles(&format!("{reader}{WRITE_LOCK}{UNLOCKS}")), vec![]);
}

#[test]
fn a_count_down_without_the_mutex_is_no_lock() {
    let unlocks = "void rd_unlock(rw_t *l) { l->readers--; pthread_mutex_lock(&l->m);
            pthread_cond_broadcast(&l->ok); pthread_mutex_unlock(&l->m); }
        void wr_unlock(rw_t *l) { pthread_mutex_lock(&l->m); l->writers = 0;
            pthread_mutex_unlock(&l->m); }";
    assert_eq!(roles(&format!("{READ_LOCK}{WRITE_LOCK}{unlocks}")), vec![]);
}
