//! `locksmith lambda`: reads a λ▷ program, type-checks it and reports in the chosen format, and
//! writes the constraint graph under `--dot FILE`.
//!
//! This module only wires the steps together (parsing and checking in `lambda_core`, the report
//! in `crate::report`, the output in `crate::render`); it neither analyses nor formats.

use std::path::Path;

use lambda_core::check;
use lambda_core::syntax;

use crate::render::{self, RenderContext, Renderer, SourceReader};
pub use crate::render::{Format, Outcome};
use crate::report::model::ErrorCode;
use crate::report::{self, Report};

/// Options of `locksmith lambda`.
#[derive(Clone, Debug, Default)]
pub struct LambdaOptions {
    pub format: Format,
    pub types: bool,
    /// Render the constraint graph into [`Outcome::dot`].
    pub dot: bool,
    /// Print the generated constraints and their solution (text format only).
    pub constraints: bool,
    /// Erase `pack` and `unpack` before inference (the paper's table 3 baseline without
    /// existentials; see `lambda_core::erase`).
    pub no_existentials: bool,
}

/// Type-checks the λ▷ program `text` read from `file_name`, and renders the report in memory
/// (into [`Outcome::stdout`], and the graph into [`Outcome::dot`] when asked).
pub fn run(file_name: &str, text: &str, options: &LambdaOptions) -> Outcome {
    let mut stdout = Vec::new();
    let report = analyse(file_name, text, options);
    let cx = context(file_name, text);
    let mut outcome = render::outcome(&report, options.format, &cx, &mut stdout);
    outcome.stdout = String::from_utf8(stdout).expect("renderers write UTF-8 text");
    outcome.dot = graph(&report, &cx, options);
    outcome
}

/// The render context of the program `text` read from `file_name`: its lines quoted from
/// memory.
fn context(file_name: &str, text: &str) -> RenderContext {
    RenderContext::new(SourceReader::on_disk(None).with_file(file_name, text))
}

/// The constraint graph of `report` as Graphviz DOT, when `options` ask for it and the program
/// was checked.
fn graph(report: &Report, cx: &RenderContext, options: &LambdaOptions) -> Option<String> {
    if !options.dot || !matches!(report, Report::Lambda(_)) {
        return None;
    }
    let mut graph = Vec::new();
    render::dot::Dot
        .render(report, cx, &mut graph)
        .expect("writing to memory cannot fail");
    Some(String::from_utf8(graph).expect("renderers write UTF-8 text"))
}

fn analyse(file_name: &str, text: &str, options: &LambdaOptions) -> Report {
    let source = || lambda_core::ast::SourceFile::new(file_name, text);
    let program = match syntax::parse(file_name, text) {
        Ok(p) if options.no_existentials => lambda_core::erase::erase_existentials(&p),
        Ok(p) => p,
        Err(e) => return report::error::at_span(&source(), e.span, ErrorCode::Syntax, &e.message),
    };
    match check::check(program) {
        Err(e) => report::error::at_span(&source(), e.span, ErrorCode::Type, &e.message),
        Ok((program, checked)) => {
            let sections = report::lambda::Sections {
                types: options.types,
                constraints: options.constraints,
                graph: options.dot || options.format == Format::Dot,
            };
            Report::Lambda(report::lambda::build(&program, &checked, sections))
        }
    }
}

/// `locksmith lambda FILE`: reads `file`, checks it, writes the constraint graph to `dot` when
/// given, then renders the report to `out`. A file that cannot be read or written is an error
/// report like any other.
pub fn run_file(
    file: &Path,
    dot: Option<&Path>,
    options: &LambdaOptions,
    out: &mut dyn std::io::Write,
) -> Outcome {
    let name = file.display().to_string();
    let mut failed = |report: Report| {
        let cx = RenderContext::new(SourceReader::on_disk(None));
        render::outcome(&report, options.format, &cx, out)
    };
    let text = match std::fs::read(file) {
        Err(e) => {
            let message = format!("cannot read {name}: {e}");
            return failed(report::error::about_file(
                ErrorCode::Unreadable,
                &name,
                message,
            ));
        }
        Ok(bytes) => match String::from_utf8(bytes) {
            Err(_) => {
                let message = format!("{name} is not UTF-8 text");
                return failed(report::error::about_file(
                    ErrorCode::NotUtf8,
                    &name,
                    message,
                ));
            }
            Ok(text) => text,
        },
    };
    let options = LambdaOptions {
        dot: dot.is_some(),
        ..options.clone()
    };
    let report = analyse(&name, &text, &options);
    let cx = context(&name, &text);
    // The graph is written before the report, so that a graph that cannot be written is the
    // run's one error, with nothing printed before it.
    if let (Some(path), Some(graph)) = (dot, graph(&report, &cx, &options)) {
        if let Err(e) = std::fs::write(path, graph) {
            let shown = path.display().to_string();
            let message = format!("cannot write {shown}: {e}");
            return failed(report::error::about_file(
                ErrorCode::Unwritable,
                &shown,
                message,
            ));
        }
    }
    render::outcome(&report, options.format, &cx, out)
}
