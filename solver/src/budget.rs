//! A run's budget: at most so much wall time and so much resident memory (`--time-limit`,
//! `--memory-limit`), and the safe points where a run that has spent it stops.
//!
//! A budget is active on the threads that run one analysis ([`within`]); the phases call
//! [`poll`] in their loops (an unwinding stop, for phases whose half-made state is useless) or
//! [`reached`] (for the race check, which keeps what it has found). A stop unwinds with a
//! [`Stop`] as its payload, through `std::panic::resume_unwind`, which runs no panic hook: the
//! front end catches it ([`caught`]) and reports what the run has. Memory is the process's
//! resident set as the kernel counts it (`VmRSS`), read at most every few milliseconds, so a run
//! overshoots its limit by what it allocates between two readings.
//!
//! It never decides anything about the program: with no limit set, every call here is a counter
//! increment and nothing else changes.
//!
//! The budget is state of one analysis run, kept per thread (`thread_local!`) rather than passed
//! as a value: [`poll`] is called in the innermost loops of every phase, deep below the functions
//! that know the run, and a thread runs one analysis at a time. Nothing is shared between
//! threads: a run that starts another thread hands its budget on ([`active`],
//! [`continue_within`]), and two runs on two threads each spend their own.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use crate::stats::Phase;

/// The limits of one run; `None` is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    /// Resident memory, in bytes.
    pub memory: Option<u64>,
}

impl Limits {
    /// Whether any limit is set.
    pub fn any(&self) -> bool {
        self.time.is_some() || self.memory.is_some()
    }
}

/// Which limit a run reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Time(Duration),
    /// Resident memory, in bytes.
    Memory(u64),
}

/// Why and where a run stopped: the payload of a stop's unwinding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub limit: Limit,
    /// The phase running when the limit was found reached: `None` from [`poll`], which does
    /// not know the run's phases; the run that catches the stop names its phase running then
    /// (`Stats::current_phase`), and a phase that stops on its own (the race check, the
    /// deadlock check on its thread) names itself.
    pub phase: Option<Phase>,
}

/// A budget being spent: its limits and when the run began.
#[derive(Clone, Copy, Debug)]
struct Budget {
    limits: Limits,
    start: Instant,
}

thread_local! {
    static ACTIVE: RefCell<Option<Budget>> = const { RefCell::new(None) };
    /// Polls since the clock was last read.
    static TICKS: Cell<u32> = const { Cell::new(0) };
    /// When resident memory was last read.
    static MEMORY_READ: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// How many [`poll`]s read the clock once: a poll is a loop iteration of a few microseconds at
/// most, so a limit is noticed within a millisecond or so.
const POLLS_PER_READING: u32 = 64;

/// How often resident memory is read at most (a read of `/proc/self/status`).
const MEMORY_EVERY: Duration = Duration::from_millis(5);

/// Runs `f` with a budget of `limits` that starts now, active on this thread.
pub fn within<T>(limits: Limits, f: impl FnOnce() -> T) -> T {
    let budget = Budget {
        limits,
        start: Instant::now(),
    };
    continue_within(Some(budget).filter(|b| b.limits.any()).map(Spent), f)
}

/// The budget active on this thread, to carry to another thread of the same run
/// ([`continue_within`]).
#[derive(Clone, Copy, Debug)]
pub struct Spent(Budget);

/// The budget this thread spends, if any.
pub fn active() -> Option<Spent> {
    ACTIVE.with(|a| *a.borrow()).map(Spent)
}

/// Runs `f` on this thread spending `spent` (another thread's [`active`] budget), or none.
pub fn continue_within<T>(spent: Option<Spent>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Budget>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            ACTIVE.with(|a| *a.borrow_mut() = previous);
        }
    }
    let previous = ACTIVE.with(|a| a.replace(spent.map(|s| s.0)));
    let _restore = Restore(previous);
    f()
}

/// The limit the active budget has reached, reading the clock (and, every few milliseconds,
/// the process's memory) now; `None` while within it, or with no budget.
pub fn reached() -> Option<Limit> {
    let budget = ACTIVE.with(|a| *a.borrow())?;
    let now = Instant::now();
    if let Some(time) = budget.limits.time {
        if now.duration_since(budget.start) >= time {
            return Some(Limit::Time(time));
        }
    }
    let memory = budget.limits.memory?;
    let due = MEMORY_READ.with(|r| r.get().is_none_or(|last| now - last >= MEMORY_EVERY));
    if !due {
        return None;
    }
    MEMORY_READ.with(|r| r.set(Some(now)));
    (resident_bytes()? >= memory).then_some(Limit::Memory(memory))
}

/// A safe point of a loop: stops the run (unwinding with a [`Stop`]) when the budget is spent.
/// Reads the clock every [`POLLS_PER_READING`] calls.
pub fn poll() {
    let ticks = TICKS.with(|t| {
        let n = t.get().wrapping_add(1);
        t.set(n);
        n
    });
    if ticks.is_multiple_of(POLLS_PER_READING) {
        poll_now();
    }
}

/// A safe point between steps long enough to read the clock at each: stops the run when the
/// budget is spent.
pub fn poll_now() {
    if let Some(limit) = reached() {
        std::panic::resume_unwind(Box::new(Stop { limit, phase: None }));
    }
}

/// Runs `f`, catching a stop: `Err` with it when the budget ran out inside. Any other unwinding
/// goes on.
pub fn caught<T>(f: impl FnOnce() -> T) -> Result<T, Stop> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        stop_of(payload).unwrap_or_else(|other| std::panic::resume_unwind(other))
    })
}

/// The stop an unwinding payload carries, or the payload back.
pub fn stop_of(
    payload: Box<dyn std::any::Any + Send>,
) -> Result<Stop, Box<dyn std::any::Any + Send>> {
    payload.downcast::<Stop>().map(|s| *s)
}

/// The resident memory of this process, in bytes (Linux's `VmRSS`), when the system says.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_limits_nothing_stops() {
        let r = caught(|| {
            within(Limits::default(), || {
                for _ in 0..10_000 {
                    poll();
                }
                poll_now();
                reached()
            })
        });
        assert_eq!(r, Ok(None));
    }

    #[test]
    fn a_spent_time_budget_stops_at_the_next_safe_point() {
        let limits = Limits {
            time: Some(Duration::ZERO),
            memory: None,
        };
        let polls = Cell::new(0);
        TICKS.with(|t| t.set(0));
        let r = caught(|| {
            within(limits, || loop {
                polls.set(polls.get() + 1);
                poll();
            })
        });
        assert_eq!(r.unwrap_err().limit, Limit::Time(Duration::ZERO));
        assert_eq!(polls.get(), POLLS_PER_READING);
        // The budget is gone with the unwinding.
        assert!(active().is_none());
    }

    #[test]
    fn memory_is_measured() {
        let Some(now) = resident_bytes() else {
            return;
        };
        assert!(now > 0);
        let limits = Limits {
            time: None,
            memory: Some(1),
        };
        assert_eq!(within(limits, reached), Some(Limit::Memory(1)));
        let plenty = Limits {
            time: None,
            memory: Some(u64::MAX),
        };
        assert_eq!(within(plenty, reached), None);
    }

    #[test]
    fn another_thread_spends_the_same_budget() {
        let limits = Limits {
            time: Some(Duration::ZERO),
            memory: None,
        };
        let stopped = within(limits, || {
            let spent = active();
            std::thread::scope(|s| {
                s.spawn(|| caught(|| continue_within(spent, poll_now)))
                    .join()
                    .unwrap()
            })
        });
        assert!(stopped.is_err());
    }

    #[test]
    fn other_panics_go_on() {
        let r = std::panic::catch_unwind(|| caught(|| std::panic::resume_unwind(Box::new(7u8))));
        assert_eq!(*r.unwrap_err().downcast::<u8>().unwrap(), 7);
    }
}
