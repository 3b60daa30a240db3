//! Developer statistics, as a value: the wall time of each analysis phase and counts of what the
//! phases built (nodes, relations, constraints of each kind, facts), for finding which phase
//! grows faster than the program, and which user-visible phase runs now.
//!
//! A [`Stats`] is one run's recorder. Its caller (the command line, a test) creates it and hands
//! it down by reference to every phase that records, so two checks in one process never share
//! one. [`Stats::off`] records nothing (each call is the test of a flag); [`Stats::to`] hands
//! every record as it is made to the caller's sink (which prints it, so a run killed before the
//! end still shows its finished phases). Either way the recorder knows the phase running now, for
//! naming an internal error or a stop. The phases are labels ([`Phase`]) that the crates running
//! them name: this module knows none of them.
//!
//! It must never keep state outside the value (no statics), and nothing recorded here influences
//! the analysis.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A receiver of records: a record's name and its value.
pub type Sink = Box<dyn Fn(&str, Value) + Send + Sync>;

/// One record: a phase's duration or a count, or the start and end of a [`Phase`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Seconds(f64),
    Count(u64),
    /// A phase has started.
    Started(Phase),
    /// A phase has ended after this many seconds.
    Finished(Phase, f64),
}

/// A phase of a check as its users see it (`--timings`, the progress indicator), named by the
/// crate that runs it: the C front end names its phases, the thread analysis its own, the command
/// line the report's. Two phases are the same when their names are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phase(&'static str);

impl Phase {
    /// The phase called `name` (as `--timings` prints it).
    pub const fn named(name: &'static str) -> Phase {
        Phase(name)
    }

    pub fn name(self) -> &'static str {
        self.0
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

/// How far the phase running now has come: items done and items in all (0 when it does not
/// say). Shared with whoever shows it (the progress indicator reads it from a thread of its own,
/// [`Stats::progress_counters`]); only the phase on the analysis thread reports it.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Progress {
    /// The progress of the phase running now, as [`Stats::progress`] last said it, if it did.
    pub fn now(&self) -> Option<(usize, usize)> {
        let total = self.total.load(Ordering::Relaxed);
        (total > 0).then(|| (self.done.load(Ordering::Relaxed).min(total), total))
    }
}

/// One run's recorder of statistics (see the module's doc). It is shared by reference with the
/// threads of the run (the deadlock check records beside the race check).
pub struct Stats {
    /// Where records go; `None` when collection is off.
    sink: Option<Sink>,
    /// The phase running now, so that an internal error can say in which phase it happened.
    current: Mutex<Option<Phase>>,
    progress: Arc<Progress>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats::off()
    }
}

impl std::fmt::Debug for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stats")
            .field("enabled", &self.enabled())
            .field("current", &self.current_phase())
            .finish()
    }
}

impl Stats {
    /// A recorder that collects nothing (but still knows the phase running now).
    pub fn off() -> Stats {
        Stats {
            sink: None,
            current: Mutex::new(None),
            progress: Arc::default(),
        }
    }

    /// A recorder that hands every record to `sink` as it is made.
    pub fn to(sink: Sink) -> Stats {
        Stats {
            sink: Some(sink),
            ..Stats::off()
        }
    }

    /// Whether statistics are being collected (callers skip computing costly counts otherwise).
    pub fn enabled(&self) -> bool {
        self.sink.is_some()
    }

    fn record(&self, name: &str, value: Value) {
        if let Some(sink) = &self.sink {
            sink(name, value);
        }
    }

    /// Runs `f` as the phase `name`, recording its wall time when collection is on.
    pub fn time<T>(&self, name: &str, f: impl FnOnce() -> T) -> T {
        if !self.enabled() {
            return f();
        }
        let start = Instant::now();
        let out = f();
        self.record(name, Value::Seconds(start.elapsed().as_secs_f64()));
        out
    }

    /// Notes that `p` runs now; entering a phase is where an injected panic happens.
    fn enter(&self, p: Phase) {
        let Ok(mut current) = self.current.lock() else {
            return;
        };
        if current.replace(p) != Some(p) {
            drop(current);
            self.progress.total.store(0, Ordering::Relaxed);
            inject_panic(format_args!("phase:{}", p.name()));
        }
    }

    /// The phase that was running last (the one an internal error happened in).
    pub fn current_phase(&self) -> Option<Phase> {
        self.current.lock().ok().and_then(|p| *p)
    }

    /// Runs `f` as the user-visible phase `p`, recording its start and its end (with its wall
    /// time) when collection is on. Phases that run in pieces (the solver's) record each piece.
    pub fn phase<T>(&self, p: Phase, f: impl FnOnce() -> T) -> T {
        self.enter(p);
        self.timed(p, f)
    }

    /// [`Stats::phase`] for a phase that runs on its own thread beside the current one (the
    /// deadlock check beside the race check): it records its time, but leaves the current phase
    /// as it is, which the other thread's errors are named by. A panic in it is named by
    /// [`Stats::mark_phase`] where it is joined.
    pub fn phase_beside<T>(&self, p: Phase, f: impl FnOnce() -> T) -> T {
        inject_panic(format_args!("phase:{}", p.name()));
        self.timed(p, f)
    }

    /// Runs `f`, recording the start and end of phase `p` when collection is on.
    fn timed<T>(&self, p: Phase, f: impl FnOnce() -> T) -> T {
        if !self.enabled() {
            return f();
        }
        self.record(p.name(), Value::Started(p));
        let start = Instant::now();
        let out = f();
        self.record(p.name(), Value::Finished(p, start.elapsed().as_secs_f64()));
        out
    }

    /// Names `p` as the phase running now, without injecting anything: for a panic of a phase
    /// that ran beside another ([`Stats::phase_beside`]), propagated where its thread is joined.
    pub fn mark_phase(&self, p: Phase) {
        if let Ok(mut current) = self.current.lock() {
            *current = Some(p);
        }
    }

    /// A clock for the user-visible phase `p` that runs in pieces ([`PhaseClock`]).
    pub fn clock(&self, p: Phase) -> PhaseClock<'_> {
        PhaseClock {
            stats: self,
            phase: p,
            seconds: 0.0,
            started: false,
        }
    }

    /// Records the duration of a phase timed by the caller.
    pub fn record_seconds(&self, name: &str, seconds: f64) {
        if self.enabled() {
            self.record(name, Value::Seconds(seconds));
        }
    }

    /// Says that the phase running now has done `done` of its `total` items (units parsed,
    /// functions generated, components propagated, locations checked).
    pub fn progress(&self, done: usize, total: usize) {
        if self.enabled() {
            self.progress.done.store(done, Ordering::Relaxed);
            self.progress.total.store(total, Ordering::Relaxed);
        }
    }

    /// The progress counters, for a reader on another thread (the progress indicator).
    pub fn progress_counters(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// Records the count `name` when collection is on.
    pub fn count(&self, name: &str, n: usize) {
        if self.enabled() {
            self.record(name, Value::Count(n as u64));
        }
    }
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

/// A user-visible phase that runs in pieces interleaved with another's (parsing and lowering
/// unit by unit, so that no more than a few syntax trees are alive at once): its start is
/// recorded at its first piece, and its end, with the total time of its pieces, by
/// [`PhaseClock::finish`]. Made by [`Stats::clock`].
pub struct PhaseClock<'a> {
    stats: &'a Stats,
    phase: Phase,
    seconds: f64,
    started: bool,
}

impl PhaseClock<'_> {
    /// Runs one piece of the phase.
    pub fn run<T>(&mut self, f: impl FnOnce() -> T) -> T {
        self.stats.enter(self.phase);
        if !self.stats.enabled() {
            return f();
        }
        if !self.started {
            self.started = true;
            self.stats
                .record(self.phase.name(), Value::Started(self.phase));
        }
        let start = Instant::now();
        let out = f();
        self.seconds += start.elapsed().as_secs_f64();
        out
    }

    /// Records the end of the phase with the total time of its pieces.
    pub fn finish(self) {
        if self.stats.enabled() {
            let value = Value::Finished(self.phase, self.seconds);
            self.stats.record(self.phase.name(), value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Phase = Phase::named("a");
    const B: Phase = Phase::named("b");

    /// Two recorders share nothing: each has its own records, current phase and progress.
    #[test]
    fn recorders_are_independent() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = seen.clone();
        let on = Stats::to(Box::new(move |name, value| {
            into.lock().unwrap().push(format!("{name}: {value}"));
        }));
        let off = Stats::off();
        on.phase(A, || on.count("things", 3));
        off.phase(B, || off.count("things", 4));
        on.progress(1, 2);
        off.progress(1, 2);
        assert_eq!(on.current_phase(), Some(A));
        assert_eq!(off.current_phase(), Some(B));
        assert_eq!(on.progress_counters().now(), Some((1, 2)));
        assert_eq!(off.progress_counters().now(), None);
        let seen = seen.lock().unwrap();
        assert_eq!(seen[..2], ["a: a started", "things: 3"]);
        assert!(seen[2].starts_with("a: a ") && seen.len() == 3);
    }

    /// A phase in pieces starts once and ends once; entering another phase resets the progress.
    #[test]
    fn a_clock_records_its_pieces_as_one_phase() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = seen.clone();
        let stats = Stats::to(Box::new(move |_, value| {
            into.lock().unwrap().push(value);
        }));
        let mut clock = stats.clock(A);
        clock.run(|| stats.progress(1, 5));
        clock.run(|| ());
        assert_eq!(stats.progress_counters().now(), Some((1, 5)));
        stats.phase(B, || ());
        assert_eq!(stats.progress_counters().now(), None);
        clock.finish();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 4);
        assert_eq!(seen[0], Value::Started(A));
        assert!(matches!(seen[3], Value::Finished(A, _)));
    }
}
