//! Signals by number, and which ones a program may send itself: what a report says of a signal
//! handler that runs only if another process sends its signal (`SIGUSR1` with no `raise`,
//! `kill` or `pthread_kill` of it in the program).
//!
//! The numbers are Linux's (those of the headers `gcc -E` reads here). A signal the system
//! raises for what the program does (`SIGSEGV`, `SIGPIPE`, `SIGCHLD`, …) is never taken as
//! coming only from outside. Code locksmith cannot see is taken to send no signal to its own
//! process. This module only answers questions; it never changes what is analysed: a handler
//! is a thread from its installation whoever sends its signal.

use std::collections::BTreeSet;

use crate::ir::visit::{self, Visitor};
use crate::ir::{Callee, Operand, Origin, Program, StmtKind};
use crate::model::{Arg, Model, Sends};

/// The name of signal `n` (`SIGUSR1`), when it is a standard one.
pub fn name(n: i64) -> Option<&'static str> {
    const NAMES: [&str; 31] = [
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGBUS",
        "SIGFPE",
        "SIGKILL",
        "SIGUSR1",
        "SIGSEGV",
        "SIGUSR2",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGSTKFLT",
        "SIGCHLD",
        "SIGCONT",
        "SIGSTOP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGVTALRM",
        "SIGPROF",
        "SIGWINCH",
        "SIGIO",
        "SIGPWR",
        "SIGSYS",
    ];
    usize::try_from(n - 1)
        .ok()
        .and_then(|k| NAMES.get(k))
        .copied()
}

/// Whether signal `n` comes only from another process (a user's `kill`, a terminal, a timer
/// set by someone else) unless the program sends it itself: hang-up, interrupt, quit,
/// termination, the user signals, alarms, job control, window changes, power.
fn sent_from_outside(n: i64) -> bool {
    matches!(
        n,
        1 | 2 | 3 | 10 | 12 | 14 | 15 | 16 | 18 | 20 | 21 | 22 | 28 | 30
    )
}

/// The signals a program may send itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    /// It may send any (a signal number it computes, a sending function called through a
    /// pointer, a timer whose signal it chooses).
    pub any: bool,
    /// The signals its calls name, sorted.
    pub signals: BTreeSet<i64>,
}

impl Sent {
    /// Whether a handler of signal `n` runs only if another process sends `n`.
    pub fn only_from_outside(&self, n: i64) -> bool {
        sent_from_outside(n) && !self.any && !self.signals.contains(&n)
    }
}

/// The signals the program's own code (and its initializers) may send.
pub fn sent(p: &Program) -> Sent {
    let mut sent = Sent::default();
    for func in p.funcs.iter().filter(|f| f.origin != Origin::Stub) {
        for stmt in func.blocks.iter().flat_map(|b| &b.stmts) {
            if let StmtKind::Call {
                callee: Callee::Direct(f),
                args,
                ..
            } = &stmt.kind
            {
                calls(&p.funcs[*f].name, args, &mut sent);
            }
        }
        // A sending function whose address is taken may be called with any signal.
        let mut taken = AddressTaken { p, found: false };
        visit::walk_func(&mut taken, func);
        sent.any |= taken.found;
    }
    sent
}

/// What a direct call of `name` with `args` sends ([`crate::model::Model::sends_signal`]).
fn calls(name: &str, args: &[Operand], sent: &mut Sent) {
    let Some(sends) = Model::builtin().sends_signal(name) else {
        return;
    };
    let constant = |k: Arg| args.get(usize::from(k)).and_then(Operand::constant);
    let signal = match sends {
        Sends::Arg(k) => constant(k),
        Sends::Signal(n) => Some(n),
        Sends::Timer(k) => constant(k).and_then(timer_signal),
        Sends::Chosen => None,
    };
    match signal {
        Some(n) => {
            sent.signals.insert(n);
        }
        None => sent.any = true,
    }
}

/// The signal of an interval timer (`ITIMER_REAL`, `ITIMER_VIRTUAL`, `ITIMER_PROF`).
fn timer_signal(which: i64) -> Option<i64> {
    match which {
        0 => Some(14),
        1 => Some(26),
        2 => Some(27),
        _ => None,
    }
}

/// Finds a sending function used as a value (not called directly).
struct AddressTaken<'p> {
    p: &'p Program,
    found: bool,
}

impl Visitor for AddressTaken<'_> {
    fn visit_operand(&mut self, op: &Operand) {
        if let Operand::Func(f) = op {
            let name = self.p.funcs[*f].name.as_str();
            self.found |= Model::builtin().sends_signal(name).is_some();
        }
        visit::walk_operand(self, op);
    }
}
