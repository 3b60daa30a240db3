//! The report model of both commands: what `locksmith check` and `locksmith lambda` have to say,
//! as plain data. The JSON format is these types serialised (docs/json.md, documents
//! them field by field), so a field added, renamed or removed here changes the JSON contract.
//!
//! The model holds names, positions and codes only. It never computes anything (the builders in
//! `report::check` and `report::lambda` fill it) and never formats output (the renderers in
//! `render` do). Fields marked `#[serde(skip)]` feed the text and DOT formats only and are not
//! part of the JSON contract.

use c_frontend::diagnostics::FatalKind;
use serde::{Serialize, Serializer};

/// What one run of either command reports.
// One report is made per run and moved a few times: boxing the largest variant buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Report {
    Check(CheckReport),
    Lambda(LambdaReport),
    Error(Failure),
}

/// The exit status of a check in which a function that may run was not analysed and nothing
/// was found (README.md, "Exit status"): neither 0 (checked, nothing found), 1 (warnings) nor
/// 2 (no analysis).
pub const EXIT_INCOMPLETE: i32 = 3;

impl Report {
    /// The exit status of the run: 0 nothing found, 1 warnings or violations, 2 no analysis,
    /// [`EXIT_INCOMPLETE`] nothing found in an incomplete check (0 under `--allow-incomplete`);
    /// 0 for a check that wrote its baseline.
    pub fn exit_status(&self) -> i32 {
        match self {
            Report::Check(c) if c.baseline_written => 0,
            Report::Check(c) => match c.verdict {
                Verdict::Races => 1,
                Verdict::Incomplete if !c.allow_incomplete => EXIT_INCOMPLETE,
                _ => 0,
            },
            Report::Lambda(l) => i32::from(!l.violations.is_empty()),
            Report::Error(_) => 2,
        }
    }
}

/// A position in a source file (lines and columns count from 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// A file and line, for where a location is declared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileLine {
    pub file: String,
    pub line: u32,
}

/// The stable code of a possible data race.
pub const DATA_RACE: &str = "data-race";

/// The stable code of a potential deadlock (a cycle in the lock order, or a self-deadlock).
pub const DEADLOCK: &str = "deadlock";

/// The stable code of a lock leak (a lock still held where its function returns, or where its
/// loop goes round to take it again).
pub const LOCK_LEAK: &str = "lock-leak";

/// The report on a C program.
/// (The default is an empty, race-free report, to fill in.)
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckReport {
    /// The possible data races, by where their location is declared, then by name (those that
    /// need a signal only another process sends after the others); then the potential
    /// deadlocks, by their first lock call.
    pub warnings: Vec<Warning>,
    /// Functions and declarations that could not be analysed.
    pub unanalysed: Vec<Unanalysed>,
    /// Called library functions with neither a body nor a model, sorted.
    pub unmodelled: Vec<String>,
    /// Called synchronisation functions whose ordering the analysis does not follow (semaphores,
    /// barriers), sorted: accesses they order may still be reported.
    pub unordered: Vec<String>,
    /// Places where the analysis is knowingly unsound, in program order.
    pub unsound: Vec<Unsound>,
    /// Misused existential annotations of `locksmith.h`, in program order.
    pub annotations: Vec<AnnotationProblem>,
    /// Suppression comments of the files checked that name no code of locksmith's or silence
    /// no warning ([`super::triage::review_comments`]), in file and line order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suppression_warnings: Vec<SuppressionWarning>,
    /// The warnings triage left out, with how (a comment, the baseline): counted below, and
    /// listed only by formats that keep suppressed results (SARIF's `suppressions`).
    #[serde(skip)]
    pub left_out: Vec<(Warning, LeftOut)>,
    /// Warnings left out because a comment silences them ([`super::triage`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub suppressed: usize,
    /// Warnings left out because the baseline records them.
    #[serde(skip_serializing_if = "is_zero")]
    pub baselined: usize,
    /// The configuration file read (`locksmith.toml`), as found or given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    /// What the configuration says that changes nothing (a row naming no function of the
    /// program, acquisitions nothing releases), in its order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub configuration_warnings: Vec<ConfigurationWarning>,
    /// Functions the program defines whose calls follow the configuration instead of their
    /// bodies, which are not analysed; in program order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub configured: Vec<ConfiguredFunction>,
    /// Variables that hold one value in every run (configuration that never changes): the
    /// branches on them go one way, and the code behind the other side is not analysed. By
    /// where they are declared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<ConfigurationConstant>,
    /// The program's own readers/writer lock functions, modelled as lock calls instead of their
    /// bodies, which are not analysed; in program order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handmade_locks: Vec<HandmadeLock>,
    /// Where the run stopped when it reached `--time-limit` or `--memory-limit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
    /// `races` (something is reported), `incomplete` (nothing is, but a function that may run
    /// was not analysed, or the run stopped before it checked every location) or `race-free`:
    /// [`CheckReport::settle`] decides it from the rest.
    pub verdict: Verdict,
    /// An incomplete check exits with 0 (`--allow-incomplete`); its verdict stays `incomplete`.
    #[serde(skip)]
    pub allow_incomplete: bool,
    /// The run wrote the baseline of its warnings (`--write-baseline`): it exits with 0, since
    /// what it found is recorded, not failed.
    #[serde(skip)]
    pub baseline_written: bool,
}

impl CheckReport {
    /// Sets the verdict from what the report holds now (after triage has left warnings out).
    pub fn settle(&mut self) {
        let unlisted = self
            .stopped
            .as_ref()
            .and_then(|s| s.locations_not_listed)
            .unwrap_or(0);
        self.verdict = if !self.warnings.is_empty() || !self.annotations.is_empty() || unlisted > 0
        {
            Verdict::Races
        } else if self.incomplete() > 0 || self.stopped.is_some() {
            Verdict::Incomplete
        } else {
            Verdict::RaceFree
        };
    }

    /// How many of the functions not analysed may run: the result does not hold for them.
    pub fn incomplete(&self) -> usize {
        self.unanalysed.iter().filter(|u| u.may_run).count()
    }
}

/// How triage left a warning out ([`CheckReport::left_out`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeftOut {
    /// A `locksmith: ignore` comment at this place.
    Comment { file: String, line: u32 },
    /// The baseline records it.
    Baseline,
}

/// A suppression comment that silences nothing, or names no code ([`super::triage`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SuppressionWarning {
    pub file: String,
    pub line: u32,
    pub message: String,
}

/// A row of the configuration that changes nothing, or less than it seems to
/// ([`CheckReport::configuration_warnings`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfigurationWarning {
    /// The configuration file, line and column of the row's function name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    pub message: String,
}

/// Where a run stopped that reached its budget ([`CheckReport::stopped`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stopped {
    /// `time` or `memory`.
    pub limit: &'static str,
    /// The limit, as `90 s` or `512 MiB`.
    pub amount: String,
    /// The phase it stopped in, as `--timings` names it.
    pub phase: String,
    /// Which locations were checked for races: `none`, `some` (the races found are reported,
    /// the other locations were not checked) or `all` (the deadlock check or the report
    /// stopped).
    pub races_checked: &'static str,
    /// Stopped while the report listed its warnings: how many racy locations were left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locations_not_listed: Option<usize>,
}

/// A function the program defines that the configuration models: its body is not analysed.
#[derive(Clone, Debug, Serialize)]
pub struct ConfiguredFunction {
    pub function: String,
    pub file: String,
    pub line: u32,
}

/// A function of the program recognised as part of a readers/writer lock built by hand
/// ([`CheckReport::handmade_locks`]).
#[derive(Clone, Debug, Serialize)]
pub struct HandmadeLock {
    pub function: String,
    /// `read lock`, `write lock`, `read unlock` or `write unlock`.
    pub role: String,
    pub file: String,
    pub line: u32,
}

/// A variable that holds one value in every run, by which branches were decided.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigurationConstant {
    /// The variable's name; for a parameter or a local, with its function (`f: x`).
    pub name: String,
    pub value: i64,
    pub file: String,
    pub line: u32,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A misuse of an annotation of `locksmith.h`, or code that breaks what it declares.
#[derive(Clone, Debug, Serialize)]
pub struct AnnotationProblem {
    /// `existential/unknown-field`, `existential/not-declared`, `existential/end-without-start`,
    /// `existential/assigned-in-unpack`, `existential/outside-unpack`, `existential/escape` or
    /// `existential/pack-after-publish`.
    pub code: &'static str,
    #[serde(flatten)]
    pub position: Position,
    /// What is wrong, in words.
    pub message: String,
}

/// What a warning is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WarningKind {
    Race,
    Deadlock,
    #[serde(rename = "lock-leak")]
    LockLeak,
}

/// A warning of a C program: serialised as the race or the deadlock itself, whose `kind` says
/// which.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Warning {
    Race(Race),
    Deadlock(Deadlock),
    LockLeak(LockLeak),
}

impl Warning {
    /// The warning's stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Warning::Race(r) => r.code,
            Warning::Deadlock(d) => d.code,
            Warning::LockLeak(l) => l.code,
        }
    }

    pub fn race(&self) -> Option<&Race> {
        match self {
            Warning::Race(r) => Some(r),
            Warning::Deadlock(_) | Warning::LockLeak(_) => None,
        }
    }

    pub fn deadlock(&self) -> Option<&Deadlock> {
        match self {
            Warning::Deadlock(d) => Some(d),
            Warning::Race(_) | Warning::LockLeak(_) => None,
        }
    }

    pub fn lock_leak(&self) -> Option<&LockLeak> {
        match self {
            Warning::LockLeak(l) => Some(l),
            Warning::Race(_) | Warning::Deadlock(_) => None,
        }
    }
}

/// A lock a function still holds where it should not: where it returns, when it releases the
/// lock before other returns, or where its loop goes back to take the lock again.
#[derive(Clone, Debug, Serialize)]
pub struct LockLeak {
    /// Always [`LOCK_LEAK`].
    pub code: &'static str,
    /// Always [`WarningKind::LockLeak`].
    pub kind: WarningKind,
    /// The lock still held.
    pub lock: String,
    /// The function that holds it.
    pub function: String,
    /// `return` (held where the function returns) or `loop` (held when its loop goes round to
    /// take it again).
    pub leak: LeakKind,
    /// Where it is still held: the return; in a loop, the lock call that takes it again.
    #[serde(flatten)]
    pub position: Position,
    /// Where it is not: a return of the function that does not hold it, or the head of the
    /// loop, which the loop also enters without it.
    pub other: Position,
    /// Where the function takes it: its lock calls, and calls of functions that return holding
    /// it; by position.
    pub taken: Vec<Position>,
}

/// Where a lock leak holds its lock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LeakKind {
    Return,
    Loop,
}

/// A potential deadlock: threads that may each hold a lock of a cycle while waiting for the
/// next one, or a thread waiting for a lock it holds itself.
#[derive(Clone, Debug, Serialize)]
pub struct Deadlock {
    /// Always [`DEADLOCK`].
    pub code: &'static str,
    /// Always [`WarningKind::Deadlock`].
    pub kind: WarningKind,
    /// The names of the cycle's locks, in order: each is held while the next (the first, after
    /// the last) is waited for. One lock for a self-deadlock, and for two locks of one name
    /// (an array of locks) taken in opposite orders.
    pub locks: Vec<String>,
    /// A thread waits for a lock it already holds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub self_deadlock: bool,
    /// What the locks are, when a name stands for several locks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The lock calls of the cycle: those that wait for the second lock holding the first, then
    /// for the third, …, each group by position.
    pub acquisitions: Vec<Acquisition>,
}

/// A lock call of a deadlock: a race access's fields (without `write`), plus the lock it waits
/// for.
#[derive(Clone, Debug, Serialize)]
pub struct Acquisition {
    #[serde(flatten)]
    pub position: Position,
    /// The lock the call waits for.
    pub lock: String,
    /// The names of the locks held, sorted.
    pub locks: Vec<String>,
    /// The call path from the thread's root: the root function, then `callee (file:line)` steps.
    pub path: Vec<String>,
    /// The thread that makes the call, in words.
    pub thread: String,
    /// The library function whose model makes the call, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// Where the cycle's lock this call holds may have been taken, on the path to it: the
    /// other acquisition of the edge.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub held_at: Vec<HeldAt>,
}

/// A lock call that may have taken a lock a deadlock's lock call holds.
#[derive(Clone, Debug, Serialize)]
pub struct HeldAt {
    /// The lock taken.
    pub lock: String,
    #[serde(flatten)]
    pub position: Position,
}

/// A location that may be accessed by two threads at once: the accesses that race, and the
/// others as context.
#[derive(Clone, Debug, Serialize)]
pub struct Race {
    /// Always [`DATA_RACE`].
    pub code: &'static str,
    pub kind: WarningKind,
    pub location: RaceLocation,
    /// Other names of the same racing memory: locations whose warnings would list exactly the
    /// same accesses (one object the analysis cannot tell apart, reached under several names),
    /// the other parts of the same library state, whose accesses the warning lists too, and a
    /// whole object whose races are all those of its fields.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<RaceLocation>,
    /// How many more names the same memory has than `aliases` lists (nine at most): objects the
    /// analysis cannot tell apart (reached through the same pointers, or merged by conversions).
    #[serde(skip_serializing_if = "is_zero")]
    pub aliases_omitted: usize,
    /// What the location is, when the name alone does not say: the state a library function
    /// keeps for itself (POSIX XSH 2.9.1 lists the functions that need not be thread-safe).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The accesses in at least one racing pair (two accesses that may happen at the same
    /// time, one writing, without a common lock), by position, writes first, then by locks
    /// held. Shared: the locations of one flow component checked in one place have the same
    /// accesses, listed once in memory.
    pub accesses: std::rc::Rc<[RaceAccess]>,
    /// The location's other accesses (protected, or ordered with every other access): they
    /// show which lock the racing ones forgot. Same order and sharing as `accesses`.
    pub context: std::rc::Rc<[RaceAccess]>,
    /// The races that are only consequences of this one: this location is a counter of running
    /// threads that a wait reads without the lock its count-downs hold (or that a thread
    /// counts down after joining them), and they go away when that wait is taken to join the
    /// threads it counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consequences: Option<Consequences>,
    /// A synchronisation the analysis does not follow that would order this race's accesses,
    /// in words: a wait on a counter that a thread counts down after joining the threads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfollowed: Option<String>,
    /// The thread analysis's warnings (their indices in its solution) this race reports: what
    /// grouping consequences under their cause goes by. Not part of the report.
    #[serde(skip)]
    pub sources: Vec<u32>,
}

/// The races that a wait which does not reliably join its threads leaves (see
/// [`Race::consequences`]).
#[derive(Clone, Debug, Serialize)]
pub struct Consequences {
    /// Where the wait tests its counter.
    #[serde(flatten)]
    pub position: Position,
    /// What the wait would order, in words.
    pub why: String,
    /// The races, each a race warning of its own, sorted as warnings are.
    pub races: Vec<Race>,
}

/// The location of a race: a variable, a field path or an allocation site.
#[derive(Clone, Debug, Serialize)]
pub struct RaceLocation {
    pub name: String,
    /// Where it is declared or allocated, when known.
    #[serde(flatten)]
    pub declared: Option<FileLine>,
}

/// One access to a racy location.
#[derive(Clone, Debug, Serialize)]
pub struct RaceAccess {
    #[serde(flatten)]
    pub position: Position,
    /// The column just past the accessed expression, when it ends on its line (`p->count` in
    /// `p->count++`): the text format underlines from `column` to here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<u32>,
    pub write: bool,
    /// An atomic access (C11 atomics, gcc's `__atomic`/`__sync` builtins): it races only with
    /// accesses that are not atomic.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub atomic: bool,
    /// The names of the locks held, sorted.
    pub locks: Vec<String>,
    /// The call path from the thread's root: the root function, then `callee (file:line)` steps.
    pub path: Vec<String>,
    /// The thread that makes the access, in words.
    pub thread: String,
    /// Other threads that make the same access (same position, kind and locks), in words; nine
    /// at most.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<String>,
    /// How many more threads make it than `also_in` names.
    #[serde(skip_serializing_if = "is_zero")]
    pub also_in_omitted: usize,
    /// The library function whose model makes the access, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

impl RaceAccess {
    /// The kind of the access, in words: `write`, `read`, `atomic write` or `atomic read`.
    pub fn kind(&self) -> &'static str {
        match (self.atomic, self.write) {
            (true, true) => "atomic write",
            (true, false) => "atomic read",
            (false, true) => "write",
            (false, false) => "read",
        }
    }
}

/// A function or declaration that could not be analysed.
#[derive(Clone, Debug, Serialize)]
pub struct Unanalysed {
    /// `unanalysed/parse-error`, `unanalysed/unsupported` or `unanalysed/internal-error`.
    pub code: &'static str,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub reason: String,
    /// Whether it may run (`c_frontend::reach`): then the check is incomplete.
    pub may_run: bool,
}

/// A place where the analysis is knowingly unsound.
#[derive(Clone, Debug, Serialize)]
pub struct Unsound {
    /// `unsound/inline-asm`, `unsound/va-arg-parameter`, `unsound/pointer-to-integer`,
    /// `unsound/longjmp` or `unsound/deadlock-cycles-not-searched`.
    pub code: &'static str,
    #[serde(flatten)]
    pub position: Position,
    /// What is not modelled there, in words.
    pub what: String,
}

/// The verdict of a run: `ok` and `violations` for λ▷ programs that type-check; `race-free`,
/// `races` and `incomplete` for checked C programs; `error` for runs of either command that
/// could not analyse their input.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Ok,
    Violations,
    /// Every function that may run was analysed, and nothing was found.
    #[default]
    RaceFree,
    /// Possible data races, potential deadlocks, lock leaks or misused annotations were found.
    Races,
    /// Nothing was found, but a function that may run was not analysed.
    Incomplete,
    Error,
}

/// The report on a λ▷ program that type-checks.
#[derive(Clone, Debug, Serialize)]
pub struct LambdaReport {
    pub file: String,
    /// `ok` or `violations`.
    pub verdict: Verdict,
    pub violations: Vec<Violation>,
    /// The type of every `let`-bound name, in source order (under `--types` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<Binding>>,
    /// The generated constraints and their solution (under `--constraints`; text only).
    #[serde(skip)]
    pub constraints: Option<ConstraintListing>,
    /// The constraint graph (for the DOT format and `--dot` only).
    #[serde(skip)]
    pub graph: Option<ConstraintGraph>,
}

/// A reason the program is rejected, with its stable code (the same word as its `kind`).
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    pub code: &'static str,
    #[serde(flatten)]
    pub detail: ViolationDetail,
}

impl Violation {
    pub fn new(detail: ViolationDetail) -> Violation {
        let code = match &detail {
            ViolationDetail::Inconsistent { .. } => "inconsistent",
            ViolationDetail::ExistentialEscape { .. } => "existential-escape",
            ViolationDetail::Nonlinear { .. } => "nonlinear",
            ViolationDetail::RecursiveEffect { .. } => "recursive-effect",
            ViolationDetail::Saturated { .. } => "saturated",
            ViolationDetail::NoConvergence => "no-convergence",
        };
        Violation { code, detail }
    }
}

/// What each kind of violation says; serialised with its `kind`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ViolationDetail {
    /// A location correlated with more than one lock.
    Inconsistent {
        location: LocationLabel,
        /// The `ref` sites that may reach the location, in label order.
        allocations: Vec<LocationLabel>,
        /// Each lock held at some access, with those accesses and the calls they are made in.
        locks: Vec<HeldLock>,
    },
    /// A lock opened by `unpack` guards a location outside its package.
    ExistentialEscape {
        location: LocationLabel,
        lock: LockLabel,
        accesses: Vec<LambdaAccess>,
    },
    /// A lock label that may stand for two run-time locks.
    Nonlinear {
        lock: LockAtom,
        /// The expression or call where the two locks meet.
        at: Position,
        #[serde(skip)]
        cause: NonlinearCause,
    },
    /// A `let rec` function whose effect is not empty.
    RecursiveEffect {
        /// The locks it allocates.
        locks: Vec<LockAtom>,
        #[serde(flatten)]
        function: Option<RecursiveFunction>,
    },
    /// A location correlated with too many locks in one context to analyse further.
    Saturated {
        location: LocationLabel,
        /// The most locks one context may correlate a location with.
        #[serde(skip)]
        limit: usize,
    },
    /// Resolution did not converge.
    NoConvergence,
}

/// Where two run-time locks become one label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NonlinearCause {
    /// Both sides of a disjoint union (a sequence, an application) allocate the lock.
    Disjoint,
    /// An instantiation maps two different locks to one; the call, in words.
    Instantiation { call: String },
}

/// A location label with what it stands for.
#[derive(Clone, Debug, Serialize)]
pub struct LocationLabel {
    /// `ρN`.
    pub label: String,
    pub description: String,
    #[serde(flatten)]
    pub position: Position,
}

/// A lock label (its class representative) with what it stands for.
#[derive(Clone, Debug, Serialize)]
pub struct LockLabel {
    /// `ℓN`.
    pub label: String,
    pub description: String,
    /// Where the class's most informative member comes from, when it has an origin.
    #[serde(flatten)]
    pub position: Option<Position>,
}

/// A lock in an effect: a lock label, or the locks a call allocates without a label of their own.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum LockAtom {
    Lock(LockLabel),
    Fresh(FreshLocks),
}

impl LockAtom {
    pub fn description(&self) -> &str {
        match self {
            LockAtom::Lock(l) => &l.description,
            LockAtom::Fresh(f) => &f.description,
        }
    }
}

/// The locks allocated by a call, at the call.
#[derive(Clone, Debug, Serialize)]
pub struct FreshLocks {
    pub description: String,
    #[serde(flatten)]
    pub position: Position,
}

/// A lock held at some accesses of an inconsistent location.
#[derive(Clone, Debug, Serialize)]
pub struct HeldLock {
    #[serde(flatten)]
    pub lock: LockLabel,
    pub accesses: Vec<LambdaAccess>,
    /// The calls, outermost first, through which the accesses are made.
    pub path: Vec<CallSite>,
}

/// An access of a λ▷ program.
#[derive(Clone, Debug, Serialize)]
pub struct LambdaAccess {
    #[serde(flatten)]
    pub position: Position,
    pub write: bool,
}

/// A use of a polymorphic name or a `pack`, in words and at its position.
#[derive(Clone, Debug, Serialize)]
pub struct CallSite {
    pub call: String,
    #[serde(flatten)]
    pub position: Position,
}

/// The `let rec` function of a recursive-effect violation.
#[derive(Clone, Debug, Serialize)]
pub struct RecursiveFunction {
    pub function: String,
    #[serde(flatten)]
    pub position: Position,
}

/// A `let`-bound name with its inferred type.
#[derive(Clone, Debug, Serialize)]
pub struct Binding {
    pub name: String,
    /// The type in the README's notation, without its quantifier.
    #[serde(rename = "type")]
    pub ty: String,
    /// The labels the type is generic in, sorted.
    pub quantified: Vec<String>,
    #[serde(flatten)]
    pub position: Position,
}

/// The polarity of an instantiation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sign {
    Pos,
    Neg,
}

/// One token of an effect term, in written order (terms nest too deeply for a recursive tree).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EffectToken {
    Empty,
    Lock(u32),
    Var(u32),
    Open,
    Close,
    /// `⊎`.
    Disjoint,
    /// `∪`.
    Union,
}

/// A generated constraint, in the paper's notation (figure 4); labels by number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    Flow {
        from: u32,
        to: u32,
    },
    PackageFlow {
        from: u32,
        to: u32,
    },
    RhoInst {
        generic: u32,
        sign: Sign,
        site: u32,
        instance: u32,
    },
    LockEq {
        a: u32,
        b: u32,
    },
    LockInst {
        generic: u32,
        site: u32,
        instance: u32,
    },
    PackLock {
        outer: u32,
        site: u32,
        inner: u32,
    },
    PackRho {
        outer: u32,
        site: u32,
        inner: u32,
    },
    Access {
        rho: u32,
        lock: u32,
        write: bool,
        line: u32,
        column: u32,
    },
    EffectBound {
        effect: Vec<EffectToken>,
        var: u32,
    },
    Filter {
        effect: Vec<EffectToken>,
        target: u32,
    },
    EffectInst {
        generic: u32,
        sign: Sign,
        site: u32,
        instance: u32,
    },
    EmptyEffect {
        var: u32,
    },
}

/// A lock of a solved effect, and whether it occurs twice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EffectAtom {
    pub lock: AtomRef,
    pub twice: bool,
}

/// A lock label, or the fresh locks of the call at a site.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomRef {
    Lock(u32),
    Fresh(u32),
}

/// A fact of the solution, in the paper's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solved {
    /// A lock class of more than one member.
    LockClass {
        rep: u32,
        members: Vec<u32>,
    },
    MatchedFlow {
        from: u32,
        to: u32,
    },
    FreshLock {
        generic: u32,
        site: u32,
        image: u32,
    },
    Effect {
        var: u32,
        atoms: Vec<EffectAtom>,
    },
    /// A correlation at the root, a copy of one made at a call when `copy_of` is set.
    RootFact {
        rho: u32,
        lock: u32,
        copy_of: Option<u32>,
    },
}

/// The constraints as generated, then their solution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstraintListing {
    pub constraints: Vec<Constraint>,
    pub solution: Vec<Solved>,
}

/// A node of the constraint graph: a label's number and what it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    pub id: u32,
    pub description: String,
}

/// An edge of the constraint graph.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GraphEdge {
    Flow {
        from: u32,
        to: u32,
    },
    PackageFlow {
        from: u32,
        to: u32,
    },
    Summary {
        from: u32,
        to: u32,
    },
    RhoInst {
        generic: u32,
        sign: Sign,
        site: u32,
        instance: u32,
    },
    LockInst {
        instance: u32,
        site: u32,
        generic: u32,
    },
    /// A correlation generated by an access.
    Generated {
        rho: u32,
        lock: u32,
    },
    /// A correlation derived by resolution.
    Derived {
        rho: u32,
        lock: u32,
    },
}

/// The constraint graph drawn like the paper's figure 3.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstraintGraph {
    pub locations: Vec<GraphNode>,
    /// Lock class representatives.
    pub locks: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

/// A run that could not analyse its input: `{"error": {…}, "verdict": "error"}`.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    pub error: ErrorReport,
    /// Always [`Verdict::Error`].
    pub verdict: Verdict,
}

impl Failure {
    pub fn new(error: ErrorReport) -> Failure {
        Failure {
            error,
            verdict: Verdict::Error,
        }
    }
}

/// Why a run could not be done, and where, when one place is to blame.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorReport {
    pub code: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

/// The stable code of an error, serialised as its string (`error/…`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// The C front end's fatal errors, with their own codes.
    Fatal(FatalKind),
    /// A λ▷ syntax error.
    Syntax,
    /// An ordinary λ▷ type error (unbound name, shape mismatch).
    Type,
    /// The input file cannot be read.
    Unreadable,
    /// The input file is not UTF-8 text.
    NotUtf8,
    /// An output file (`--dot`) cannot be written.
    Unwritable,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Fatal(kind) => kind.code(),
            ErrorCode::Syntax => "error/syntax",
            ErrorCode::Type => "error/type",
            ErrorCode::Unreadable => "error/unreadable",
            ErrorCode::NotUtf8 => "error/not-utf8",
            ErrorCode::Unwritable => "error/unwritable",
        }
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
