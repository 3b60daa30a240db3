//! What the user sees of a check while it runs, on stderr: the wall time and peak memory of each
//! phase (`--timings`), a progress indicator naming the phase when the run takes more than a
//! second and stderr is a terminal, and the developer's statistics (`LOCKSMITH_STATS`).
//!
//! The analysis crates only record ([`solver::stats`]); this module receives the records and
//! writes them. Nothing here ever writes to stdout, so no report format is affected.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use solver::stats::{Phase, Value};

/// What to show, set once by [`start`].
#[derive(Copy, Clone, Debug, Default)]
pub struct Show {
    /// `--timings`: one line per phase with its wall time and the peak memory so far.
    pub timings: bool,
    /// `LOCKSMITH_STATS`: every record, for developers.
    pub statistics: bool,
}

static SHOW: OnceLock<Show> = OnceLock::new();
/// The phase running now, for the progress indicator.
static CURRENT: Mutex<Option<Phase>> = Mutex::new(None);

/// While alive, the records of the check go to stderr as `show` says, and a progress indicator
/// appears after a second on a terminal; dropping it removes the indicator.
pub struct Running {
    done: Arc<AtomicBool>,
    ticker: Option<std::thread::JoinHandle<()>>,
}

/// Starts showing the progress of a check.
pub fn start(show: Show) -> Running {
    let _ = SHOW.set(show);
    solver::stats::enable(record);
    let done = Arc::new(AtomicBool::new(false));
    let ticker = std::io::stderr().is_terminal().then(|| {
        let done = done.clone();
        std::thread::spawn(move || indicator(&done))
    });
    Running { done, ticker }
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
fn indicator(done: &AtomicBool) {
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
        let phase = CURRENT.lock().ok().and_then(|p| *p);
        if let Some(p) = phase {
            let k = Phase::ALL.iter().position(|&q| q == p).unwrap_or(0) + 1;
            let items = solver::stats::progress_now()
                .map(|(done, total)| format!(": {done}/{total}"))
                .unwrap_or_default();
            bar.set_message(format!("{} ({k}/{}){items}", p.name(), Phase::ALL.len()));
        }
        bar.tick();
        std::thread::sleep(step);
    }
    bar.finish_and_clear();
}

/// The sink of the analysis's records.
fn record(name: &str, value: Value) {
    let show = SHOW.get().copied().unwrap_or_default();
    match value {
        Value::Started(p) => {
            if let Ok(mut current) = CURRENT.lock() {
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
