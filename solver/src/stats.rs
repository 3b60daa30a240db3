//! Developer statistics: the wall time of each analysis phase and counts of what the phases built
//! (nodes, relations, constraints of each kind, facts), for finding which phase grows faster than
//! the program. Collection is off unless a front end calls [`enable`] (the command line does when
//! the environment variable `LOCKSMITH_STATS` is set); the solver only records, the caller prints
//! what [`take`] returns. Nothing recorded here influences the analysis.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// The records so far, in the order they were made.
static RECORDS: Mutex<Vec<(String, Value)>> = Mutex::new(Vec::new());

/// One record: a phase's duration or a count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Seconds(f64),
    Count(u64),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Seconds(s) => write!(f, "{s:.3} s"),
            Value::Count(n) => write!(f, "{n}"),
        }
    }
}

/// Turns collection on for the rest of the process.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether statistics are being collected (callers skip computing costly counts otherwise).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

fn record(name: &str, value: Value) {
    if let Ok(mut r) = RECORDS.lock() {
        r.push((name.to_string(), value));
    }
}

/// Runs `f` as the phase `name`, recording its wall time when collection is on.
pub fn time<T>(name: &str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let start = Instant::now();
    let out = f();
    record(name, Value::Seconds(start.elapsed().as_secs_f64()));
    out
}

/// Records the duration of a phase timed by the caller.
pub fn record_seconds(name: &str, seconds: f64) {
    if enabled() {
        record(name, Value::Seconds(seconds));
    }
}

/// Records the count `name` when collection is on.
pub fn count(name: &str, n: usize) {
    if enabled() {
        record(name, Value::Count(n as u64));
    }
}

/// The records made so far, emptying the store.
pub fn take() -> Vec<(String, Value)> {
    RECORDS
        .lock()
        .map(|mut r| std::mem::take(&mut *r))
        .unwrap_or_default()
}
