//! Rows a user's configuration (`locksmith.toml`) adds to the built-in model: the program's own
//! lock API, thread-creation and join functions, allocators, thread-safe functions and functions
//! that never return. They are data, layered over the built-in rows ([`Model::with_configured`]),
//! and a configured row wins over a built-in row of the same name.
//!
//! Unlike a built-in row, a configured row also applies to a function the program defines (or
//! declares `static`): the user said what its calls do, and the lowering then drops its body
//! ([`Role::replaces_body`]), so the calls do exactly that and nothing its body does is analysed.
//! Only [`Role::NeverReturns`] keeps the body, as a `_Noreturn` declaration would.
//!
//! This module never reads a file: the command line turns the configuration into
//! [`Configured`] rows, with the places each value was written for errors.
//!
//! [`Model::with_configured`]: super::Model::with_configured

use super::{Arg, Kind, LockMode, Spec, TrySuccess};
use crate::diagnostics::Place;

/// What a configured function does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Acquires the lock its argument `lock` points to.
    Acquire { lock: Arg, mode: LockMode },
    /// Releases the lock its argument `lock` points to.
    Release { lock: Arg },
    /// Tries to acquire the lock its argument `lock` points to and returns `success` when it did.
    TryAcquire {
        lock: Arg,
        mode: LockMode,
        success: TrySuccess,
    },
    /// Starts a thread running `routine(argument)`, storing its handle through `id`.
    ThreadCreate {
        routine: Arg,
        argument: Option<Arg>,
        id: Option<Arg>,
    },
    /// Waits for the thread whose handle is its argument `id`, storing the thread's result
    /// through `result`.
    ThreadJoin { id: Arg, result: Option<Arg> },
    /// Returns fresh memory, one allocation site per call.
    Allocator,
    /// Touches nothing shared and keeps no copy of its arguments (a pure function, or one that
    /// synchronises everything it touches itself).
    ThreadSafe,
    /// Never returns: the path ends at its calls.
    NeverReturns,
}

impl Role {
    /// The model's spec of a function with this role.
    pub fn spec(self) -> Spec {
        let kind = match self {
            Role::Acquire { lock, mode } => Kind::Acquire {
                lock,
                mode,
                waits: true,
            },
            Role::Release { lock } => Kind::Release { lock },
            Role::TryAcquire {
                lock,
                mode,
                success,
            } => Kind::TryAcquire {
                lock,
                mode,
                success,
            },
            Role::ThreadCreate {
                routine,
                argument,
                id,
            } => Kind::Fork {
                id,
                func: routine,
                arg: argument,
            },
            Role::ThreadJoin { id, result } => Kind::Join { id, out: result },
            Role::Allocator => Kind::Alloc,
            Role::ThreadSafe | Role::NeverReturns => Kind::NoEffect,
        };
        let mut spec = Spec::new(kind);
        match self {
            Role::Allocator => spec.fresh_result = true,
            Role::ThreadSafe => spec.non_capturing = true,
            Role::NeverReturns => spec.noreturn = true,
            _ => {}
        }
        spec
    }

    /// Whether the configured behaviour replaces the body of a function the program defines.
    /// A function that never returns keeps its body: what it does before it ends the path
    /// still happens.
    pub fn replaces_body(self) -> bool {
        self != Role::NeverReturns
    }
}

/// One argument position a configured row names, to be checked against the function's
/// declaration once the program is lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfiguredArg {
    pub index: Arg,
    /// The key it was given by (`lock`, `routine`), for the error message.
    pub key: String,
    /// What the parameter at that position must be.
    pub expect: Expect,
    /// Where the value was written.
    pub at: Option<Place>,
}

/// What a configured argument position must be, in the function's declaration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Anything (a thread's argument, a thread handle passed by value).
    Any,
    /// A pointer (a lock, where a handle or a result is stored).
    Pointer,
    /// A pointer to a function, or a `void *` (a thread's routine).
    Function,
}

/// What a configuration says that changes nothing, or less than it seems to: a row naming a
/// function the program neither declares nor calls (a misspelt name), and lock acquisitions
/// that no configured function releases. `declared` says whether the program knows a name.
/// Each is a warning with the place of the row, in the configuration's order.
pub fn warnings(
    rows: &[Configured],
    declared: impl Fn(&str) -> bool,
) -> Vec<(Option<Place>, String)> {
    let mut out = Vec::new();
    let releases = rows.iter().any(|r| matches!(r.role, Role::Release { .. }));
    for row in rows {
        if !declared(&row.name) {
            out.push((
                row.at.clone(),
                format!(
                    "`{}` names no function the program declares or calls: the row changes nothing",
                    row.name
                ),
            ));
        } else if !releases && matches!(row.role, Role::Acquire { .. } | Role::TryAcquire { .. }) {
            out.push((
                row.at.clone(),
                format!(
                    "`{}` acquires a lock, but no `[[release]]` row releases one: what it takes \
                     stays held unless the program releases it with a pthread function",
                    row.name
                ),
            ));
        }
    }
    out
}

/// One function the user's configuration models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Configured {
    pub name: String,
    pub role: Role,
    /// The argument positions the row names.
    pub args: Vec<ConfiguredArg>,
    /// Where the function's name was written.
    pub at: Option<Place>,
}
