//! Developer statistics: the wall time of each analysis phase and counts of what the phases built
//! (nodes, relations, constraints of each kind, facts), for finding which phase grows faster than
//! the program. Collection is off unless a front end calls [`enable`] (the command line does when
//! the environment variable `LOCKSMITH_STATS` is set); the solver only records, handing each
//! record as it is made to the sink the caller gave (which prints it, so a run killed before
//! the end still shows its finished phases). Nothing recorded here influences the analysis.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// A receiver of records.
pub type Sink = fn(&str, Value);

/// Where records go.
static SINK: Mutex<Option<Sink>> = Mutex::new(None);

/// One record: a phase's duration or a count, or the start and end of a [`Phase`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Seconds(f64),
    Count(u64),
    /// A phase of [`Phase`] has started.
    Started(Phase),
    /// A phase of [`Phase`] has ended after this many seconds.
    Finished(Phase, f64),
}

/// The phases of `locksmith check` as its users see them (`--timings`, the progress
/// indicator), in the order they run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    Preprocess,
    Parse,
    Lower,
    /// The front end's analyses of the IR (joins, unpacks, lock elements, barriers, startup
    /// stores) that constraint generation reads.
    Analyses,
    /// Constraint generation (paper §3): labelled types, constraints, event graphs.
    Generate,
    /// Label resolution (figure 8a): matched flow, lock unification, linearity.
    Resolve,
    /// Relative locksets (§3.1).
    Locksets,
    /// Sharing (§3.2): which threads may run where, Down-Fork, correlations carried to roots.
    Sharing,
    /// The consistent-correlation check.
    Check,
    /// The lock order and its cycles (potential deadlocks).
    Deadlocks,
    Report,
}

impl Phase {
    pub const ALL: [Phase; 11] = [
        Phase::Preprocess,
        Phase::Parse,
        Phase::Lower,
        Phase::Analyses,
        Phase::Generate,
        Phase::Resolve,
        Phase::Locksets,
        Phase::Sharing,
        Phase::Check,
        Phase::Deadlocks,
        Phase::Report,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Preprocess => "preprocess",
            Phase::Parse => "parse",
            Phase::Lower => "lower",
            Phase::Analyses => "front-end analyses",
            Phase::Generate => "constraint generation",
            Phase::Resolve => "label resolution",
            Phase::Locksets => "locksets",
            Phase::Sharing => "sharing",
            Phase::Check => "check",
            Phase::Deadlocks => "deadlocks",
            Phase::Report => "report",
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Seconds(s) => write!(f, "{s:.3} s"),
            Value::Count(n) => write!(f, "{n}"),
            Value::Started(p) => write!(f, "{} started", p.name()),
            Value::Finished(p, s) => write!(f, "{} {s:.3} s", p.name()),
        }
    }
}

/// Turns collection on for the rest of the process, handing every record to `sink`.
pub fn enable(sink: Sink) {
    if let Ok(mut s) = SINK.lock() {
        *s = Some(sink);
    }
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether statistics are being collected (callers skip computing costly counts otherwise).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

fn record(name: &str, value: Value) {
    let sink = SINK.lock().ok().and_then(|s| *s);
    if let Some(sink) = sink {
        sink(name, value);
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

/// The phase running now (`u8::MAX` before the first), so that an internal error can say in
/// which phase it happened.
static CURRENT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(u8::MAX);

/// Notes that `p` runs now; entering a phase is where an injected panic happens.
fn enter(p: Phase) {
    let k = Phase::ALL.iter().position(|&q| q == p).unwrap_or(0) as u8;
    if CURRENT.swap(k, Ordering::Relaxed) != k {
        PROGRESS_TOTAL.store(0, Ordering::Relaxed);
        inject_panic(format_args!("phase:{}", p.name()));
    }
}

/// The phase that was running last (the one an internal error happened in).
pub fn current_phase() -> Option<Phase> {
    Phase::ALL
        .get(usize::from(CURRENT.load(Ordering::Relaxed)))
        .copied()
}

/// Panics when the environment variable `LOCKSMITH_INJECT_PANIC` is `place` (`phase:sharing`,
/// `lower:f`, `generate:f`): the tests of contained internal errors make one happen where they
/// want it. Only with the feature `fault-injection`, which the workspace's tests turn on (a
/// dev-dependency): the shipped binary never reads the variable.
#[cfg(feature = "fault-injection")]
pub fn inject_panic(place: std::fmt::Arguments<'_>) {
    let place = place.to_string();
    if std::env::var_os("LOCKSMITH_INJECT_PANIC").is_some_and(|v| v == place.as_str()) {
        panic!("injected at {place}");
    }
}

/// Without the feature `fault-injection`: nothing (the place is not even formatted).
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn inject_panic(_place: std::fmt::Arguments<'_>) {}

/// Runs `f` as the user-visible phase `p`, recording its start and its end (with its wall time)
/// when collection is on. Phases that run in pieces (the solver's) record each piece.
pub fn phase<T>(p: Phase, f: impl FnOnce() -> T) -> T {
    enter(p);
    timed(p, f)
}

/// [`phase`] for a phase that runs on its own thread beside the current one (the deadlock check
/// beside the race check): it records its time, but leaves the current phase as it is, which
/// the other thread's errors are named by. A panic in it is named by [`mark_phase`] where it
/// is joined.
pub fn phase_beside<T>(p: Phase, f: impl FnOnce() -> T) -> T {
    inject_panic(format_args!("phase:{}", p.name()));
    timed(p, f)
}

/// Runs `f`, recording the start and end of phase `p` when collection is on.
fn timed<T>(p: Phase, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    record(p.name(), Value::Started(p));
    let start = Instant::now();
    let out = f();
    record(p.name(), Value::Finished(p, start.elapsed().as_secs_f64()));
    out
}

/// Names `p` as the phase running now, without injecting anything: for a panic of a phase
/// that ran beside another ([`phase_beside`]), propagated where its thread is joined.
pub fn mark_phase(p: Phase) {
    let k = Phase::ALL.iter().position(|&q| q == p).unwrap_or(0) as u8;
    CURRENT.store(k, Ordering::Relaxed);
}

/// A user-visible phase that runs in pieces interleaved with another's (parsing and lowering
/// unit by unit, so that no more than a few syntax trees are alive at once): its start is
/// recorded at its first piece, and its end, with the total time of its pieces, by
/// [`PhaseClock::finish`].
pub struct PhaseClock {
    phase: Phase,
    seconds: f64,
    started: bool,
}

impl PhaseClock {
    pub fn new(phase: Phase) -> PhaseClock {
        PhaseClock {
            phase,
            seconds: 0.0,
            started: false,
        }
    }

    /// Runs one piece of the phase.
    pub fn run<T>(&mut self, f: impl FnOnce() -> T) -> T {
        enter(self.phase);
        if !enabled() {
            return f();
        }
        if !self.started {
            self.started = true;
            record(self.phase.name(), Value::Started(self.phase));
        }
        let start = Instant::now();
        let out = f();
        self.seconds += start.elapsed().as_secs_f64();
        out
    }

    /// Records the end of the phase with the total time of its pieces.
    pub fn finish(self) {
        if enabled() {
            record(self.phase.name(), Value::Finished(self.phase, self.seconds));
        }
    }
}

/// Records the duration of a phase timed by the caller.
pub fn record_seconds(name: &str, seconds: f64) {
    if enabled() {
        record(name, Value::Seconds(seconds));
    }
}

/// How far the phase running now has come: items done and items in all (0 when it does not
/// say). Read by the progress indicator; only the phase on the analysis thread reports it.
static PROGRESS_DONE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static PROGRESS_TOTAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Says that the phase running now has done `done` of its `total` items (units parsed,
/// functions generated, components propagated, locations checked).
pub fn progress(done: usize, total: usize) {
    if enabled() {
        PROGRESS_DONE.store(done, Ordering::Relaxed);
        PROGRESS_TOTAL.store(total, Ordering::Relaxed);
    }
}

/// The progress of the phase running now, as [`progress`] last said it, if it did.
pub fn progress_now() -> Option<(usize, usize)> {
    let total = PROGRESS_TOTAL.load(Ordering::Relaxed);
    (total > 0).then(|| (PROGRESS_DONE.load(Ordering::Relaxed).min(total), total))
}

/// Records the count `name` when collection is on.
pub fn count(name: &str, n: usize) {
    if enabled() {
        record(name, Value::Count(n as u64));
    }
}
