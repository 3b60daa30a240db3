//! The output formats: one renderer per format, each in its own file, each rendering the report
//! of either command. Adding a format is a new renderer file and one [`Format`] variant (with its
//! arm in [`Format::render`]).
//!
//! Renderers read the report model only; they never look at analysis results and never decide
//! the exit status (the report does). The one line an error prints on stderr is the same in
//! every format and is written here.

pub mod dot;
pub mod json;
pub mod text;

pub use text::Sources;

use crate::report::Report;

/// The output format of a report (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Warnings or violations with source lines, then a summary line.
    #[default]
    Text,
    /// One JSON object: the report model serialised (README.md, "JSON output").
    Json,
    /// A Graphviz graph: the races of `check`, the constraint graph of `lambda`.
    Dot,
}

impl Format {
    /// The report as this format prints it on stdout. `sources` gives the text renderer the
    /// source lines it quotes.
    pub fn render(self, report: &Report, sources: &Sources) -> String {
        match self {
            Format::Text => text::render(report, sources),
            Format::Json => json::render(report),
            Format::Dot => dot::render(report),
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
