//! The C front end's diagnostics, as data: what could not be done and where the analysis is
//! knowingly unsound, each with a stable code (`unsound/inline-asm`, `unanalysed/parse-error`,
//! `error/no-main`, …) that every report format can show and users can filter on.
//!
//! Diagnostics carry ids and positions; turning them into sentences is the renderers' job. Only
//! the details that exist nowhere else (a parser's expectation, an I/O error) are kept as text.

use crate::ir::{FuncId, Pos};

/// A place where the analysis is knowingly unsound (README, "Where the analysis is knowingly
/// unsound"): reported wherever it occurs, never silently.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unsound {
    pub pos: Pos,
    pub kind: UnsoundKind,
}

/// What is not modelled at an [`Unsound`] place.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnsoundKind {
    /// Inline assembly: its effects are not modelled (the lvalues it names are touched).
    InlineAsm,
    /// `va_arg` on a `va_list` received as a parameter: the values it yields are not tracked.
    VaArgParameter,
    /// A pointer converted to an integer: the integer is not tracked.
    PointerToInteger,
    /// A call of `longjmp` (the function named): execution resuming at its `setjmp` is not
    /// followed.
    LongJmp(FuncId),
    /// A function whose lock order has more cycles than the deadlock check walks: its cycles of
    /// `from_locks` locks or more were not all searched. Made by the report from the thread
    /// analysis's result (`ThreadSolution::cycles_cut`), at the function's position.
    CyclesNotSearched { func: FuncId, from_locks: usize },
}

/// A misuse of the existential annotations of `locksmith.h` (paper §3.3), at its position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Annotation {
    pub pos: Pos,
    pub kind: AnnotationKind,
}

/// What is wrong with an annotation, or with the code it annotates.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AnnotationKind {
    /// `LOCKSMITH_EXISTENTIAL(tag, lock)` names no struct with a body, or no field of it.
    UnknownField { strukt: String, field: String },
    /// A pack or unpack of a pointer to a struct not declared existential (`None`: not a
    /// pointer to a struct at all).
    NotDeclared { strukt: Option<String> },
    /// `LOCKSMITH_END_UNPACK(p)` where no unpack of `p` is certainly open.
    EndWithoutStart { var: String },
    /// A pointer whose unpack is open is assigned before the unpack ends.
    AssignedInUnpack { var: String },
    /// A field of a declared struct accessed, where another thread may see it, outside every
    /// unpack (no unpack written, and its object's lock not held through the same pointer).
    OutsideUnpack { strukt: String, field: String },
    /// The address of a guarded field taken: the data escapes its package.
    Escape { strukt: String, field: String },
    /// A pack of an object other threads may already reach.
    PackAfterPublish,
}

impl AnnotationKind {
    /// The stable code of this kind of misuse.
    pub fn code(&self) -> &'static str {
        match self {
            AnnotationKind::UnknownField { .. } => "existential/unknown-field",
            AnnotationKind::NotDeclared { .. } => "existential/not-declared",
            AnnotationKind::EndWithoutStart { .. } => "existential/end-without-start",
            AnnotationKind::AssignedInUnpack { .. } => "existential/assigned-in-unpack",
            AnnotationKind::OutsideUnpack { .. } => "existential/outside-unpack",
            AnnotationKind::Escape { .. } => "existential/escape",
            AnnotationKind::PackAfterPublish => "existential/pack-after-publish",
        }
    }
}

impl UnsoundKind {
    /// The stable code of this kind of unsoundness.
    pub fn code(self) -> &'static str {
        match self {
            UnsoundKind::InlineAsm => "unsound/inline-asm",
            UnsoundKind::VaArgParameter => "unsound/va-arg-parameter",
            UnsoundKind::PointerToInteger => "unsound/pointer-to-integer",
            UnsoundKind::LongJmp(_) => "unsound/longjmp",
            UnsoundKind::CyclesNotSearched { .. } => "unsound/deadlock-cycles-not-searched",
        }
    }
}

/// A function or declaration the analysis could not use. It is listed in reports; the rest of
/// the program is analysed without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unanalysed {
    pub name: String,
    pub pos: Pos,
    pub kind: UnanalysedKind,
    /// What was lost: whether it is a function's body, which may run ([`crate::reach`]).
    pub lost: Lost,
    /// What went wrong and what was kept instead, in words (the parser's or lowering's detail).
    pub reason: String,
}

/// What of the program a [`Unanalysed`] entry leaves out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lost {
    /// A function's body: the function stays declared, so a call of it is a call of code
    /// locksmith cannot see.
    Body,
    /// A whole item the parser could not take apart: maybe a function definition.
    Item,
    /// A typedef (read as `int`) or a declaration that defines no function (a global, a
    /// prototype): it never runs, and what uses it is listed on its own when it cannot be
    /// lowered.
    Declaration,
}

/// Why something was not analysed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnanalysedKind {
    /// `lang-c` could not parse it; the recovery cut it out.
    ParseError,
    /// It parsed, but uses a construct the lowering does not support.
    Unsupported,
    /// locksmith failed on it (a panic, contained): the rest of the program is still checked.
    Internal,
}

impl UnanalysedKind {
    /// The stable code of this kind of failure.
    pub fn code(self) -> &'static str {
        match self {
            UnanalysedKind::ParseError => "unanalysed/parse-error",
            UnanalysedKind::Unsupported => "unanalysed/unsupported",
            UnanalysedKind::Internal => "unanalysed/internal-error",
        }
    }
}

/// The message a panic carried (its payload is a `&str` or a `String` when made by `panic!`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// A run that cannot be done: exit status 2, with one line for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fatal {
    pub kind: FatalKind,
    /// The whole message, naming the file and what went wrong (when `at` is given, the message
    /// does not repeat it).
    pub message: String,
    /// Where in a file the error is, when it is at one place (a key of the configuration).
    pub at: Option<Place>,
}

/// A place in a file that is not C source (the configuration file): its name as the user gave
/// it, a 1-based line and a 1-based column counted in characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Why a run cannot be done.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FatalKind {
    /// No input file was given.
    NoInput,
    /// An input cannot be read, or the preprocessor failed on it.
    Preprocess,
    /// An input is not C: binary, or no declaration in it parses.
    NotC,
    /// The program has no `main` to start from.
    NoMain,
    /// locksmith itself could not work: its data files, its threads.
    Internal,
    /// A baseline file cannot be read, is not a baseline, or cannot be written.
    Baseline,
    /// A build's compilation database is missing or malformed, or selects no C file.
    CompileCommands,
    /// The configuration file (`locksmith.toml`) cannot be read, is not valid TOML, or says
    /// something locksmith cannot use.
    Config,
    /// Two units of the program define one external function.
    Link,
}

impl FatalKind {
    /// The stable code of this kind of error.
    pub fn code(self) -> &'static str {
        match self {
            FatalKind::NoInput => "error/no-input",
            FatalKind::Preprocess => "error/preprocess",
            FatalKind::NotC => "error/not-c",
            FatalKind::NoMain => "error/no-main",
            FatalKind::Internal => "error/internal",
            FatalKind::Baseline => "error/baseline",
            FatalKind::CompileCommands => "error/compile-commands",
            FatalKind::Config => "error/config",
            FatalKind::Link => "error/link",
        }
    }
}

impl Fatal {
    pub fn new(kind: FatalKind, message: impl Into<String>) -> Fatal {
        Fatal {
            kind,
            message: message.into(),
            at: None,
        }
    }

    /// An error at a place in a file.
    pub fn at(kind: FatalKind, place: Place, message: impl Into<String>) -> Fatal {
        Fatal {
            kind,
            message: message.into(),
            at: Some(place),
        }
    }
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
