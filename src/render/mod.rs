//! The output formats: one renderer per format, each in its own file, each rendering the report
//! of either command through the one [`Renderer`] trait. Adding a format is a new renderer file
//! (a type implementing [`Renderer`]) and one [`Format`] variant with its arm in
//! [`Format::renderer`]; nothing else changes.
//!
//! A renderer is given the report, the [`RenderContext`] (the source lines it may quote, whether
//! to colour, the directory a format that writes files writes into) and where to write: standard
//! output, or memory for the library's in-memory runs. It returns a [`RenderError`] when its
//! output cannot be written, and never drops one. Renderers read the report model only; they
//! never look at analysis results and never decide the exit status (the report does, and
//! [`outcome`] makes a render error exit status 2). The one line an error prints on stderr is the
//! same in every format and is made by [`outcome`], the one entry point of both commands. The text
//! format draws its diagnostics with the helpers of `diagnostic`, in colour when the context says
//! so ([`ColorChoice`] decides it from `--color`).

pub mod diagnostic;
pub mod dot;
pub mod html;
pub mod json;
pub mod sarif;
pub mod short;
pub mod source;
pub mod text;

pub use source::SourceReader;

use std::path::PathBuf;

use crate::report::model::CheckReport;
use crate::report::Report;

/// The output format of a report (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Warnings or violations with source lines, then a summary line.
    #[default]
    Text,
    /// One JSON object: the report model serialised (docs/json.md).
    Json,
    /// A Graphviz graph: the races of `check`, the constraint graph of `lambda`.
    Dot,
    /// One line per finding, `file:line:col: warning: …`, for editors and `grep`.
    Short,
    /// SARIF 2.1.0, for code scanning and editors (files relative to `--source-root`).
    Sarif,
    /// A self-contained HTML report, written into the directory given with `-o DIR` (`check`
    /// only).
    Html,
}

impl Format {
    /// The renderer of this format.
    pub fn renderer(self) -> &'static dyn Renderer {
        match self {
            Format::Text => &text::Text,
            Format::Json => &json::Json,
            Format::Dot => &dot::Dot,
            Format::Short => &short::Short,
            Format::Sarif => &sarif::Sarif,
            Format::Html => &html::Html,
        }
    }
}

/// One output format.
pub trait Renderer {
    /// Writes `report` to `out` in this format. A format that writes files (HTML) writes them
    /// into [`RenderContext::output_dir`] and says where on `out`. A failed run's report is
    /// rendered too (its error line on stderr is not the renderer's: [`outcome`] writes it);
    /// a format may have nothing to say of it.
    fn render(
        &self,
        report: &Report,
        cx: &RenderContext,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError>;
}

/// What every renderer is given besides the report and where to write it.
#[derive(Debug)]
pub struct RenderContext {
    /// The source files the report names, for the formats that quote them (text, HTML), with the
    /// source root they are named relative to (SARIF's `SRCROOT`).
    pub sources: SourceReader,
    /// Whether to colour (`--color`, decided for the terminal); only the text format does.
    pub color: bool,
    /// The directory the formats that write files (HTML) write into (`-o DIR`).
    pub output_dir: Option<PathBuf>,
    /// Where each rule's documentation is (`--help-uri`): an absolute URI in which `{rule}`
    /// stands for the rule's id; SARIF gives it as every rule's `helpUri`.
    pub help_uri: Option<HelpUri>,
}

/// The template of the URI of a rule's documentation: absolute, `{rule}` standing for the
/// rule's id wherever it occurs (`https://example.org/locksmith/rules#{rule}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpUri(String);

impl HelpUri {
    /// The template `text`, or why it is not one: a URI has a scheme (RFC 3986, section 3.1),
    /// and SARIF's `helpUri` must be absolute.
    pub fn parse(text: &str) -> Result<HelpUri, String> {
        let scheme = text.split(':').next().unwrap_or("");
        let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !is_scheme || scheme.len() == text.len() {
            return Err(format!(
                "`{text}` is not an absolute URI (such as `https://example.org/rules#{{rule}}`)"
            ));
        }
        if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!("`{text}` holds a space or a control character"));
        }
        Ok(HelpUri(text.to_string()))
    }

    /// The URI of the documentation of rule `id`.
    pub fn of(&self, id: &str) -> String {
        self.0.replace("{rule}", id)
    }
}

impl RenderContext {
    /// A context quoting `sources`, without colour and without an output directory.
    pub fn new(sources: SourceReader) -> RenderContext {
        RenderContext {
            sources,
            color: false,
            output_dir: None,
            help_uri: None,
        }
    }

    /// The directory reports name files relative to, absolute.
    pub fn source_root(&self) -> &std::path::Path {
        self.sources.root()
    }
}

/// Why a report could not be written.
#[derive(Debug)]
pub enum RenderError {
    /// Its output (standard output) did not take it.
    Output(std::io::Error),
    /// A format that writes files (`format`) was given no directory to write them into.
    NoOutputDir { format: &'static str },
    /// A file of `what` could not be written into `dir`.
    Unwritable {
        what: &'static str,
        dir: PathBuf,
        error: std::io::Error,
    },
}

impl RenderError {
    /// Whether the output was a pipe its reader closed (`locksmith check … | head`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RenderError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl From<std::io::Error> for RenderError {
    fn from(error: std::io::Error) -> RenderError {
        RenderError::Output(error)
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::Output(e) => write!(f, "cannot write the output: {e}"),
            RenderError::NoOutputDir { format } => {
                write!(
                    f,
                    "the {format} format writes a directory: give it with -o DIR"
                )
            }
            RenderError::Unwritable { what, dir, error } => {
                write!(f, "cannot write {what} into {}: {error}", dir.display())
            }
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenderError::Output(error) | RenderError::Unwritable { error, .. } => Some(error),
            RenderError::NoOutputDir { .. } => None,
        }
    }
}

/// The complete result of a command: what to print, the exit status, and the Graphviz graph
/// `locksmith lambda --dot FILE` writes.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The report as printed, for a run rendered in memory (`lambda::run`); empty when it was
    /// written to a writer as it was made.
    pub stdout: String,
    /// The error line of a failed run, or of a report that could not be written.
    pub stderr: String,
    pub exit: i32,
    /// The Graphviz rendering, when requested.
    pub dot: Option<String>,
}

/// Renders `report` in `format` to `out` and flushes it, and returns the rest of the outcome
/// (its `stdout` is empty): the error line of a failed run for stderr, and the report's exit
/// status. A report that cannot be written adds its own error line and exits with status 2,
/// but for a pipe its reader closed (`locksmith check … | head`): that reader wants no more, and
/// the run ends quietly, as any Unix filter's.
pub fn outcome(
    report: &Report,
    format: Format,
    cx: &RenderContext,
    out: &mut dyn std::io::Write,
) -> Outcome {
    let rendered = format
        .renderer()
        .render(report, cx, out)
        .and_then(|()| out.flush().map_err(RenderError::Output));
    let mut outcome = Outcome {
        stdout: String::new(),
        stderr: match report {
            Report::Error(failure) => text::error_line(&failure.error),
            _ => String::new(),
        },
        exit: report.exit_status(),
        dot: None,
    };
    match rendered {
        Ok(()) => {}
        Err(e) if e.is_broken_pipe() => {}
        Err(e) => {
            outcome.stderr.push_str(&format!("locksmith: error: {e}\n"));
            outcome.exit = 2;
        }
    }
    outcome
}

/// A lock leak's one-line title, in every format's words.
pub fn leak_title(l: &crate::report::model::LockLeak) -> String {
    use crate::report::model::LeakKind;
    match l.leak {
        LeakKind::Return => format!(
            "possible lock leak: {} is still held when {} returns here",
            l.lock, l.function
        ),
        LeakKind::Loop => format!(
            "possible lock leak: {} is still held when the loop in {} goes round to take it again",
            l.lock, l.function
        ),
    }
}

/// A lock leak's labels: for where the lock is held, and the note over where it is not.
pub fn leak_labels(l: &crate::report::model::LockLeak) -> (String, String) {
    use crate::report::model::LeakKind;
    match l.leak {
        LeakKind::Return => (
            format!("returns holding {}", l.lock),
            format!(
                "{} returns without {} here: the paths disagree (or callers must release it on some)",
                l.function, l.lock
            ),
        ),
        LeakKind::Loop => (
            format!("takes {} again, still held from the round before", l.lock),
            format!("the loop starts here, also entered without {}", l.lock),
        ),
    }
}

/// The end of a warning's list of other names when the report left `n` out
/// ([`crate::report::model::Race::aliases_omitted`]).
pub fn omitted_names(n: usize) -> String {
    format!(
        ", and {n} more name{} of memory the analysis cannot tell apart (reached through the \
         same pointers)",
        if n == 1 { "" } else { "s" }
    )
}

/// What a check that missed functions that may run says of them:
/// `N functions were not analysed, so the result is incomplete` (`None` when it missed none).
/// The text summary, the HTML report and the DOT graph say it in these words.
pub fn incompleteness(r: &CheckReport) -> Option<String> {
    let functions = match r.incomplete() {
        0 => None,
        1 => Some("1 function was not analysed".to_string()),
        n => Some(format!("{n} functions were not analysed")),
    };
    let why: Vec<String> = r
        .stopped
        .as_ref()
        .map(stop)
        .into_iter()
        .chain(functions)
        .collect();
    (!why.is_empty()).then(|| format!("{}, so the result is incomplete", why.join("; ")))
}

/// A configuration warning as compilers place one:
/// `locksmith.toml:12:13: warning: … [configuration]`.
pub fn configuration_warning(w: &crate::report::model::ConfigurationWarning) -> String {
    let at = match (&w.file, w.line, w.column) {
        (Some(file), Some(line), Some(column)) => format!("{file}:{line}:{column}"),
        (Some(file), _, _) => file.clone(),
        _ => "locksmith".to_string(),
    };
    format!("{at}: warning: {} [configuration]", w.message)
}

/// A suppression comment's warning: `x.c:12: warning: … [suppression]`.
pub fn suppression_warning(w: &crate::report::model::SuppressionWarning) -> String {
    format!(
        "{}:{}: warning: {} [suppression]",
        w.file, w.line, w.message
    )
}

/// What a run out of budget says of where it stopped
/// (`the time limit of 90 s was reached in sharing: no location was checked`).
pub fn stop(s: &crate::report::model::Stopped) -> String {
    let checked = match (s.races_checked, s.locations_not_listed) {
        ("none", _) => "no location was checked for races".to_string(),
        ("some", _) => "some locations were not checked for races".to_string(),
        (_, Some(left)) => format!(
            "every location was checked for races, but the warnings of {left} racy \
             location{} and the deadlocks are not listed",
            if left == 1 { "" } else { "s" }
        ),
        _ => "every location was checked for races, but not every deadlock".to_string(),
    };
    format!(
        "the {} limit of {} was reached in {}: {checked}",
        s.limit, s.amount, s.phase
    )
}

/// Whether the text format is coloured (`--color`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and `NO_COLOR` is not set to a non-empty value.
    #[default]
    Auto,
    /// Colour, even with `NO_COLOR` set: a flag given on the command line wins over the
    /// environment.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour, given whether stdout is a terminal and the value of `NO_COLOR`
    /// (no-color.org: set and not empty, it turns the default colouring off).
    pub fn enabled(self, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

/// `report` rendered in `format` in memory, its sources read from disk.
#[cfg(test)]
pub(crate) fn rendered(format: Format, report: &Report) -> String {
    let mut out = Vec::new();
    let cx = RenderContext::new(SourceReader::on_disk(None));
    format
        .renderer()
        .render(report, &cx, &mut out)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("renderers write UTF-8 text")
}

#[cfg(test)]
mod tests {
    use super::{outcome, ColorChoice, Format, RenderContext, SourceReader};
    use crate::report::model::{CheckReport, Verdict};
    use crate::report::Report;
    use std::ffi::OsStr;
    use std::io;

    #[test]
    fn colour_follows_the_flag_the_terminal_and_no_color() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(ColorChoice::Auto.enabled(true, None));
        assert!(ColorChoice::Auto.enabled(true, empty));
        assert!(!ColorChoice::Auto.enabled(true, set));
        assert!(!ColorChoice::Auto.enabled(false, None));
        assert!(ColorChoice::Always.enabled(false, set));
        assert!(!ColorChoice::Never.enabled(true, None));
    }

    /// An output that takes nothing, failing with `kind`.
    struct Refusing(io::ErrorKind);

    impl io::Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(self.0.into())
        }

        fn flush(&mut self) -> io::Result<()> {
            Err(self.0.into())
        }
    }

    /// A report that cannot be written is an error of the run in every format, said on stderr
    /// with exit status 2; a closed pipe ends the run quietly with the report's status.
    #[test]
    fn an_output_that_takes_nothing_is_an_error_unless_its_reader_left() {
        let report = Report::Check(CheckReport {
            verdict: Verdict::Races,
            ..CheckReport::default()
        });
        let cx = RenderContext::new(SourceReader::on_disk(None));
        for format in [
            Format::Text,
            Format::Json,
            Format::Dot,
            Format::Short,
            Format::Sarif,
        ] {
            let full = outcome(
                &report,
                format,
                &cx,
                &mut Refusing(io::ErrorKind::StorageFull),
            );
            assert_eq!(full.exit, 2, "{format:?}");
            assert!(
                full.stderr
                    .starts_with("locksmith: error: cannot write the output: "),
                "{format:?}: {}",
                full.stderr
            );
            let closed = outcome(
                &report,
                format,
                &cx,
                &mut Refusing(io::ErrorKind::BrokenPipe),
            );
            assert_eq!((closed.exit, closed.stderr.as_str()), (1, ""), "{format:?}");
        }
        let html = outcome(&report, Format::Html, &cx, &mut Vec::new());
        assert_eq!(html.exit, 2);
        assert_eq!(
            html.stderr,
            "locksmith: error: the HTML format writes a directory: give it with -o DIR\n"
        );
    }
}
