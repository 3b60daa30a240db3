//! The output formats: one renderer per format, each in its own file, each rendering the report
//! of either command. Adding a format is a new renderer file and one [`Format`] variant (with its
//! arm in [`Format::render`]). The text format draws its diagnostics with the helpers of
//! `diagnostic`, in colour when [`ColorChoice`] says so.
//!
//! Renderers read the report model only; they never look at analysis results and never decide
//! the exit status (the report does). The one line an error prints on stderr is the same in
//! every format and is written here, and so are the files of the one format that writes files
//! (HTML, into the directory [`Sources::output_dir`] names).

pub mod diagnostic;
pub mod dot;
pub mod html;
pub mod json;
pub mod sarif;
pub mod short;
pub mod text;

pub use text::Sources;

use crate::report::model::{CheckReport, ErrorCode};
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
    /// The report as this format prints it on stdout. `sources` gives the text renderer the
    /// source lines it quotes.
    pub fn render(self, report: &Report, sources: &Sources) -> String {
        let mut out = String::new();
        self.render_to(report, sources, &mut out);
        out
    }

    /// [`Format::render`], written to `out` as it is made (a large report need not be held
    /// whole in memory before it is printed).
    pub fn render_to(self, report: &Report, sources: &Sources, out: &mut dyn std::fmt::Write) {
        match self {
            Format::Text => text::render_to(report, sources, out),
            Format::Json => json::render_to(report, out),
            Format::Dot => {
                let _ = out.write_str(&dot::render(report));
            }
            Format::Short => short::render_to(report, out),
            Format::Sarif => sarif::render_to(report, sources, out),
            Format::Html => html::render_to(report, sources, out),
        }
    }
}

/// What a check that missed functions that may run says of them:
/// `N functions were not analysed, so the result is incomplete` (`None` when it missed none).
/// The text summary, the HTML report and the DOT graph say it in these words.
/// The end of a warning's list of other names when the report left `n` out
/// ([`crate::report::model::Race::aliases_omitted`]).
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

pub fn omitted_names(n: usize) -> String {
    format!(
        ", and {n} more name{} of memory the analysis cannot tell apart (reached through the \
         same pointers)",
        if n == 1 { "" } else { "s" }
    )
}

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

/// The complete result of a command: what to print, the exit status, and the Graphviz graph
/// `locksmith lambda --dot FILE` writes.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub exit: i32,
    /// The Graphviz rendering, when requested.
    pub dot: Option<String>,
}

/// Renders `report` in `format` to `out`, and returns the rest of the outcome (its `stdout` is
/// empty): the error line (if any) for stderr, and the report's exit status. The HTML format
/// writes its pages into the output directory and only says where on `out`.
pub fn outcome_to(
    report: &Report,
    format: Format,
    sources: &Sources,
    out: &mut dyn std::fmt::Write,
) -> Outcome {
    if let (Format::Html, Report::Check(check)) = (format, report) {
        return html_outcome(check, report, sources, out);
    }
    format.render_to(report, sources, out);
    let stderr = match report {
        Report::Error(failure) => text::error_line(&failure.error),
        _ => String::new(),
    };
    Outcome {
        stdout: String::new(),
        stderr,
        exit: report.exit_status(),
        dot: None,
    }
}

/// Writes the pages of the HTML report on `check` into the output directory (created if
/// needed; other files in it are left alone) and one line on `out` saying where. A directory
/// that is not given or cannot be written is an error of the run (exit status 2), as for any
/// file that cannot be written.
fn html_outcome(
    check: &CheckReport,
    report: &Report,
    sources: &Sources,
    out: &mut dyn std::fmt::Write,
) -> Outcome {
    let failed = |message: String, dir: &str, out: &mut dyn std::fmt::Write| {
        let error = crate::report::error::about_file(ErrorCode::Unwritable, dir, message);
        outcome_to(&error, Format::Text, sources, out)
    };
    let Some(dir) = sources.output_dir() else {
        let message = "the HTML format writes a directory: give it with -o DIR".to_string();
        return failed(message, ".", out);
    };
    let shown = dir.display().to_string();
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        html::pages(check, sources)
            .iter()
            .try_for_each(|page| std::fs::write(dir.join(&page.name), &page.html))
    });
    if let Err(e) = written {
        return failed(
            format!("cannot write the HTML report into {shown}: {e}"),
            &shown,
            out,
        );
    }
    let _ = writeln!(
        out,
        "locksmith: {}; report written to {}",
        html::verdict(check),
        dir.join(html::INDEX).display()
    );
    Outcome {
        stdout: String::new(),
        stderr: String::new(),
        exit: report.exit_status(),
        dot: None,
    }
}

/// A [`std::fmt::Write`] over an [`std::io::Write`] (standard output): the renderers write text,
/// the process writes bytes. A write that fails (a closed pipe) ends the writing quietly, as
/// for any Unix filter.
pub struct IoWriter<W: std::io::Write> {
    inner: W,
    failed: bool,
}

impl<W: std::io::Write> IoWriter<W> {
    pub fn new(inner: W) -> IoWriter<W> {
        IoWriter {
            inner,
            failed: false,
        }
    }

    /// Flushes what is buffered.
    pub fn finish(mut self) {
        if !self.failed {
            let _ = self.inner.flush();
        }
    }
}

impl<W: std::io::Write> std::fmt::Write for IoWriter<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if !self.failed && self.inner.write_all(s.as_bytes()).is_err() {
            self.failed = true;
        }
        Ok(())
    }
}

/// Renders `report` in `format`: stdout in the format, the error line (if any) on stderr, and the
/// report's exit status.
pub fn outcome(report: &Report, format: Format, sources: &Sources) -> Outcome {
    let stderr = match report {
        Report::Error(failure) => text::error_line(&failure.error),
        _ => String::new(),
    };
    Outcome {
        stdout: format.render(report, sources),
        stderr,
        exit: report.exit_status(),
        dot: None,
    }
}

#[cfg(test)]
mod tests {
    use super::ColorChoice;
    use std::ffi::OsStr;

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
}
