//! `locksmith check`: runs the C pipeline on a program's files and reports in the chosen format.
//!
//! This module only wires the steps together (analysis in `c_frontend::driver`, the report in
//! `crate::report`, the output in `crate::render`); it neither analyses nor formats.

use std::path::PathBuf;

use c_frontend::diagnostics::{panic_message, Fatal, FatalKind};
use c_frontend::driver::{self, CheckOptions};

use solver::stats::{self, Phase};

use crate::render::{self, Format, Outcome, Sources};
use crate::report::{self, Report};

/// Checks the C program made of `files` and renders the report in `format` to `out` as it is
/// made (the returned outcome's `stdout` is empty). With the environment variable
/// `LOCKSMITH_DEBUG` set, the front end's debug dump goes to stderr first.
pub fn run(
    files: Vec<PathBuf>,
    options: CheckOptions,
    format: Format,
    sources: Sources,
    out: &mut dyn std::fmt::Write,
) -> Outcome {
    let result = driver::check_on_large_stack(files, options);
    let mut clock = stats::PhaseClock::new(Phase::Report);
    // The report is built whole before any of it is written, so an internal error while
    // building it is one error, never half a report.
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        clock.run(|| match result {
            Ok(result) => {
                if std::env::var_os("LOCKSMITH_DEBUG").is_some() {
                    eprint!("{}", driver::debug_dump(&result));
                }
                Report::Check(report::check::build(&result))
            }
            Err(fatal) => report::error::fatal(&fatal),
        })
    }));
    let report = built.unwrap_or_else(|panic| {
        report::error::fatal(&Fatal::new(
            FatalKind::Internal,
            format!(
                "internal error in report: {}",
                panic_message(panic.as_ref())
            ),
        ))
    });
    let outcome = clock.run(|| render::outcome_to(&report, format, &sources, out));
    clock.finish();
    outcome
}
