//! The cost of lazy struct fields across call sites (`constraints/ltypes`): a field made after
//! a struct's relations exist is paired once per relation, not every field of the struct again.
//! Counted by the generator's own statistics (`ltypes: field pairings`), since the reports are
//! the same either way; a struct given to `SITES` calls, whose fields are then made one at a
//! time by the callers, shows the difference between pairings in `SITES × FIELDS` and in
//! `SITES × FIELDS²`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use c_frontend::driver::{self, CheckOptions};
use solver::stats::{Stats, Value};

const FIELDS: usize = 64;
const SITES: usize = 6;

/// A program whose callers each call `fill` with a struct, then write every field of it.
fn program() -> String {
    let fields: String = (0..FIELDS).map(|k| format!(" int f{k};")).collect();
    let mut text = format!(
        "#include <pthread.h>\nstruct big {{{fields} }};\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void fill(struct big *p) {{ pthread_mutex_lock(&m); p->f0 = 1; pthread_mutex_unlock(&m); }}\n"
    );
    for s in 0..SITES {
        let writes: String = (0..FIELDS).map(|k| format!(" p->f{k} = {k};")).collect();
        text += &format!("void caller{s}(struct big *p) {{ fill(p);{writes} }}\n");
    }
    let calls: String = (0..SITES).map(|s| format!(" caller{s}(&b);")).collect();
    text += &format!(
        "void *work(void *arg) {{ (void)arg; struct big b;{calls} return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, work, 0); pthread_join(t, 0); return 0; }}\n"
    );
    text
}

/// Every count the check of `text` recorded, by name.
fn counts(text: &str) -> BTreeMap<String, u64> {
    let dir = std::env::temp_dir().join(format!("locksmith-field-pairings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    let path = dir.join("prog.c");
    std::fs::write(&path, text).expect("write test file");
    let seen: Arc<Mutex<BTreeMap<String, u64>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let stats = Stats::to(Box::new(move |name, value| {
        if let Value::Count(n) = value {
            sink.lock().unwrap().insert(name.to_string(), n);
        }
    }));
    let checked = driver::check_on_large_stack(vec![path], CheckOptions::default(), &stats);
    let _ = std::fs::remove_dir_all(&dir);
    checked
        .and_then(driver::Checked::done)
        .expect("the program is checked");
    let out = seen.lock().unwrap().clone();
    out
}

#[test]
fn a_field_made_after_the_calls_is_paired_once_per_relation() {
    let counts = counts(&program());
    let pairings = counts["ltypes: field pairings"] as usize;
    // Each caller's struct is related to `fill`'s parameter and to `work`'s `b`: a few relations
    // per caller, each pairing every field about once (1,216 pairings). Pairing every field
    // again whenever one is made grows as the square of FIELDS (5,248 pairings).
    assert!(
        pairings <= 4 * SITES * FIELDS,
        "{pairings} field pairings for {SITES} sites of {FIELDS} fields"
    );
    // And the count is not vacuous: every caller's fields were paired with `fill`'s.
    assert!(pairings >= SITES * FIELDS, "{pairings} field pairings");
}
