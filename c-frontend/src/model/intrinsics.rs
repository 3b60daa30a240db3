//! The analysis intrinsics of the libc stubs (`libc-stubs/locksmith_stubs.h`): functions the
//! stubs call to say what plain C cannot (an untyped copy, a fresh object, an unknown value, an
//! access through variadic arguments), and the acquire the lowering inserts on a try-lock's
//! success edge, and the existential annotations of `locksmith.h` (pack, unpack, end of unpack).
//! They are a closed set, declared and never defined.

use super::{Kind, LockMode, Row};

/// One `__locksmith_*` intrinsic.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// Acquires the lock its argument points to (a try-lock that succeeded).
    Acquire,
    /// Acquires the lock its argument points to for reading (a read try-lock that succeeded).
    AcquireShared,
    /// Releases the lock its argument points to.
    Release,
    /// A fresh heap object, one per calling context.
    Alloc,
    /// Reads the whole object its argument points to.
    Read,
    /// Writes the whole object its argument points to.
    Write,
    /// `*dst = *src` as an untyped copy.
    Copy,
    /// An unknown `int`.
    Nondet,
    /// Reads through every pointer among the calling stub's variadic arguments.
    ReadVarargs,
    /// Writes through every pointer among the calling stub's variadic arguments.
    WriteVarargs,
    /// `LOCKSMITH_PACK(p)` of `locksmith.h`: the object `p` points to is complete (§3.3 pack).
    Pack,
    /// `LOCKSMITH_UNPACK(p)`: an unpack of the object `p` points to begins.
    Unpack,
    /// `LOCKSMITH_END_UNPACK(p)`: that unpack ends.
    EndUnpack,
    /// Starts the entry points it is given as threads ([`Kind::StartsEntries`]); only the
    /// harness of `--entry` and `--library` calls it.
    StartEntries,
    /// `__locksmith_lock_kind(&m, &m)`: the mutex `m` was made by a static initializer of a
    /// kind that may not block when its holder locks it again (recursive, error-checking), as
    /// `pthread_mutex_init` with attributes may make one ([`Kind::LockInit`]); the lowering
    /// calls it where such an initializer is written.
    LockKind,
}

impl Intrinsic {
    pub const ALL: [Intrinsic; 15] = [
        Intrinsic::Acquire,
        Intrinsic::AcquireShared,
        Intrinsic::Release,
        Intrinsic::Alloc,
        Intrinsic::Read,
        Intrinsic::Write,
        Intrinsic::Copy,
        Intrinsic::Nondet,
        Intrinsic::ReadVarargs,
        Intrinsic::WriteVarargs,
        Intrinsic::Pack,
        Intrinsic::Unpack,
        Intrinsic::EndUnpack,
        Intrinsic::StartEntries,
        Intrinsic::LockKind,
    ];

    /// The intrinsic that acquires a lock in `mode`, which the lowering calls on the edge where a
    /// try-lock succeeded.
    pub fn acquire(mode: LockMode) -> Intrinsic {
        match mode {
            LockMode::Exclusive => Intrinsic::Acquire,
            LockMode::Shared => Intrinsic::AcquireShared,
        }
    }

    /// The function name the stubs (and the lowering) call it by.
    pub fn name(self) -> &'static str {
        match self {
            Intrinsic::Acquire => "__locksmith_acquire",
            Intrinsic::AcquireShared => "__locksmith_acquire_shared",
            Intrinsic::Release => "__locksmith_release",
            Intrinsic::Alloc => "__locksmith_alloc",
            Intrinsic::Read => "__locksmith_read",
            Intrinsic::Write => "__locksmith_write",
            Intrinsic::Copy => "__locksmith_copy",
            Intrinsic::Nondet => "__locksmith_nondet",
            Intrinsic::ReadVarargs => "__locksmith_read_varargs",
            Intrinsic::WriteVarargs => "__locksmith_write_varargs",
            Intrinsic::Pack => "__locksmith_pack",
            Intrinsic::Unpack => "__locksmith_unpack",
            Intrinsic::EndUnpack => "__locksmith_end_unpack",
            Intrinsic::StartEntries => "__locksmith_start_entries",
            Intrinsic::LockKind => "__locksmith_lock_kind",
        }
    }

    /// The intrinsic called `name`.
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        Intrinsic::ALL.into_iter().find(|i| i.name() == name)
    }

    /// Its row in the model.
    pub(super) fn row(self) -> Row {
        let kind = match self {
            // On a try-lock's success edge: the lock was free, nothing waited.
            Intrinsic::Acquire => Kind::Acquire {
                lock: 0,
                mode: LockMode::Exclusive,
                waits: false,
            },
            Intrinsic::AcquireShared => Kind::Acquire {
                lock: 0,
                mode: LockMode::Shared,
                waits: false,
            },
            Intrinsic::Release => Kind::Release { lock: 0 },
            Intrinsic::Alloc => Kind::Alloc,
            Intrinsic::Read => Kind::Access {
                ptr: 0,
                write: false,
            },
            Intrinsic::Write => Kind::Access {
                ptr: 0,
                write: true,
            },
            Intrinsic::Copy => Kind::Copy { dst: 0, src: 1 },
            Intrinsic::Nondet => Kind::NoEffect,
            Intrinsic::ReadVarargs => Kind::VarargsAccess { write: false },
            Intrinsic::WriteVarargs => Kind::VarargsAccess { write: true },
            // The annotations have no effect of their own: the unpack analysis reads them.
            Intrinsic::Pack | Intrinsic::Unpack | Intrinsic::EndUnpack => Kind::NoEffect,
            Intrinsic::StartEntries => Kind::StartsEntries,
            Intrinsic::LockKind => Kind::LockInit { lock: 0, attr: 1 },
        };
        let row = Row::new(self.name(), kind);
        match self {
            Intrinsic::Alloc => row.fresh_result(),
            // They access what their arguments point to and keep nothing: fresh memory a stub
            // fills with them stays unpublished (uniqueness inside stubs).
            Intrinsic::Read | Intrinsic::Write | Intrinsic::Copy => row.non_capturing(),
            _ => row,
        }
    }
}
