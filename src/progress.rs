//! What the user sees of a check while it runs, on stderr: the wall time and peak memory of each
//! phase (`--timings`), a progress indicator naming the phase when the run takes more than a
//! second and stderr is a terminal, and the developer's statistics (`LOCKSMITH_STATS`).
//!
//! The analysis crates only record, into the [`Stats`] this module makes for the run
//! ([`Running::stats`]); it receives the records and writes them. It names the order of the
//! check's phases ([`PHASES`]) and the report's phase. Nothing here ever writes to stdout, so no
//! report format is affected, and it keeps no state outside the value [`start`] returns.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use c_frontend::driver;
use indicatif::{ProgressBar, ProgressStyle};
use solver::stats::{Phase, Progress, Stats, Value};
use solver::threads;

/// Building and writing the report, the last phase of `locksmith check`.
pub const PHASE_REPORT: Phase = Phase::named("report");

/// The phases of `locksmith check` in the order they run, which the progress indicator numbers.
pub const PHASES: [Phase; 11] = [
    driver::PHASE_PREPROCESS,
    driver::PHASE_PARSE,
    driver::PHASE_LOWER,
    driver::PHASE_ANALYSES,
    driver::PHASE_GENERATE,
    threads::PHASE_RESOLVE,
    threads::PHASE_LOCKSETS,
    threads::PHASE_SHARING,
    threads::PHASE_CHECK,
    threads::PHASE_DEADLOCKS,
    PHASE_REPORT,
];

/// What to show, set once by [`start`].
#[derive(Copy, Clone, Debug, Default)]
pub struct Show {
    /// `--timings`: one line per phase with its wall time and the peak memory so far.
    pub timings: bool,
    /// `LOCKSMITH_STATS`: every record, for developers.
    pub statistics: bool,
}

/// While alive, the records of the check (made into [`Running::stats`]) go to stderr as `show`
/// says, and a progress indicator appears after a second on a terminal; dropping it removes the
/// indicator.
pub struct Running {
    stats: Stats,
    done: Arc<AtomicBool>,
    ticker: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The recorder the check is to record into.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

/// Starts showing the progress of a check.
pub fn start(show: Show) -> Running {
    // The phase running now, for the progress indicator.
    let current: Arc<Mutex<Option<Phase>>> = Arc::default();
    let started = current.clone();
    let stats = Stats::to(Box::new(move |name, value| {
        record(show, &started, name, value)
    }));
    let done = Arc::new(AtomicBool::new(false));
    let ticker = std::io::stderr().is_terminal().then(|| {
        let done = done.clone();
        let progress = stats.progress_counters();
        std::thread::spawn(move || indicator(&done, &current, &progress))
    });
    Running {
        stats,
        done,
        ticker,
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
    }
}

/// The progress indicator: nothing for the first second, then a spinner with the phase's name
/// and number, and how many of its items it has done when it says so, until the check ends.
fn indicator(done: &AtomicBool, current: &Mutex<Option<Phase>>, progress: &Progress) {
    let step = Duration::from_millis(100);
    for _ in 0..10 {
        if done.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(step);
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} locksmith: {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    while !done.load(Ordering::Relaxed) {
        let phase = current.lock().ok().and_then(|p| *p);
        if let Some(p) = phase {
            let k = PHASES.iter().position(|&q| q == p).unwrap_or(0) + 1;
            let items = progress
                .now()
                .map(|(done, total)| format!(": {done}/{total}"))
                .unwrap_or_default();
            bar.set_message(format!("{} ({k}/{}){items}", p.name(), PHASES.len()));
        }
        bar.tick();
        std::thread::sleep(step);
    }
    bar.finish_and_clear();
}

/// The sink of the analysis's records: notes the phase started in `current`, and writes what
/// `show` asks for.
fn record(show: Show, current: &Mutex<Option<Phase>>, name: &str, value: Value) {
    match value {
        Value::Started(p) => {
            if let Ok(mut current) = current.lock() {
                *current = Some(p);
            }
        }
        Value::Finished(p, seconds) if show.timings => {
            let peak = peak_mib().map_or("?".to_string(), |m| format!("{m}"));
            eprintln!(
                "timing: {:<22} {seconds:>8.3} s   peak {peak:>6} MiB",
                p.name()
            );
        }
        _ if show.statistics => eprintln!("stats: {name}: {value}"),
        _ => {}
    }
}

/// The peak resident memory of the process so far, in MiB (Linux's `VmHWM`), when known.
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}
